#include "ui/importpreviewdialog.h"

#include "model/store.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QUrl>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace plimsoll {

namespace {

enum Column { Source, Format, Status, Runs, Scenarios, Metrics, Warnings, ColumnCount };

// Each report with the source string to import it by: the file a directory expanded to, or
// the URL as the user typed it (the report's uri has credentials redacted).
using Preview = std::vector<std::pair<QString, SourceReport>>;

Preview dryRun(const std::string &storePath, const QStringList &sources, bool insecure)
{
    Preview out;
    try {
        Store store(storePath);
        ImportService service(store);
        for (const QString &source : sources) {
            ImportRequest request;
            request.path = source.toStdString();
            request.dryRun = true;
            request.insecure = insecure;
            const bool url = source.startsWith(QLatin1String("http://")) ||
                             source.startsWith(QLatin1String("https://"));
            for (SourceReport &r : service.importPath(request)) {
                const QString origin = url ? source : QString::fromStdString(r.uri);
                out.emplace_back(origin, std::move(r));
            }
        }
    } catch (const std::exception &e) {
        SourceReport failed;
        failed.uri = storePath;
        failed.status = "failed";
        failed.errorText = e.what();
        out.emplace_back(QString(), failed);
    }
    return out;
}

QTableWidgetItem *numberItem(int64_t n)
{
    auto *item = new QTableWidgetItem;
    item->setData(Qt::DisplayRole, QVariant::fromValue<qlonglong>(n));
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

} // namespace

ImportPreviewDialog::ImportPreviewDialog(const QString &storePath, const QStringList &sources,
                                         bool insecure, QWidget *parent)
    : QDialog(parent), m_sources(sources), m_insecure(insecure)
{
    setWindowTitle(tr("Import benchmark results"));
    setObjectName(QStringLiteral("importPreviewDialog"));
    resize(900, 480);
    auto *layout = new QVBoxLayout(this);
    m_status = new QLabel(tr("Reading %n source(s)…", nullptr, int(sources.size())), this);
    m_status->setObjectName(QStringLiteral("previewStatus"));
    layout->addWidget(m_status);

    m_table = new QTableWidget(0, ColumnCount, this);
    m_table->setObjectName(QStringLiteral("previewTable"));
    m_table->setHorizontalHeaderLabels({tr("Source"), tr("Format"), tr("Result"), tr("Runs"),
                                        tr("Scenarios"), tr("Metrics"), tr("Warnings")});
    m_table->horizontalHeader()->setSectionResizeMode(Source, QHeaderView::Stretch);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    layout->addWidget(m_table, 2);

    m_details = new QPlainTextEdit(this);
    m_details->setObjectName(QStringLiteral("previewDetails"));
    m_details->setReadOnly(true);
    m_details->setPlaceholderText(tr("Warnings and errors of the selected source"));
    layout->addWidget(m_details, 1);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    QPushButton *importButton = m_buttons->addButton(tr("Import"), QDialogButtonBox::AcceptRole);
    importButton->setObjectName(QStringLiteral("importButton"));
    importButton->setEnabled(false);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(m_buttons);

    connect(m_table, &QTableWidget::currentCellChanged, this, [this](int row) {
        if (row < 0 || row >= int(m_reports.size()))
            return;
        const SourceReport &r = m_reports[size_t(row)];
        QString text;
        if (r.status == "failed")
            text += QString::fromStdString(r.errorText) + QLatin1Char('\n');
        for (const ImportWarning &w : r.warnings)
            text += (w.line > 0 ? tr("line %1: ").arg(w.line) : QString()) +
                    QString::fromStdString(w.detail) + QLatin1Char('\n');
        m_details->setPlainText(text.isEmpty() ? tr("No warnings.") : text);
    });
    connect(&m_watcher, &QFutureWatcher<Preview>::finished, this, [this] {
        const Preview preview = m_watcher.result();
        m_origins.clear();
        std::vector<SourceReport> reports;
        for (const auto &[origin, report] : preview) {
            m_origins << origin;
            reports.push_back(report);
        }
        showReports(reports);
    });
    m_watcher.setFuture(QtConcurrent::run(dryRun, storePath.toStdString(), sources, insecure));
}

ImportPreviewDialog::~ImportPreviewDialog()
{
    // A dry run still reading (a slow URL) is left to finish on its own; its result is dropped.
    m_watcher.disconnect(this);
}

void ImportPreviewDialog::showReports(const std::vector<SourceReport> &reports)
{
    m_reports = reports;
    m_table->setRowCount(int(reports.size()));
    int readable = 0;
    int64_t runs = 0;
    for (int row = 0; row < int(reports.size()); ++row) {
        const SourceReport &r = reports[size_t(row)];
        const bool failed = r.status == "failed";
        readable += failed ? 0 : 1;
        runs += failed ? 0 : r.runs;
        auto *source = new QTableWidgetItem(QString::fromStdString(r.uri));
        source->setToolTip(QString::fromStdString(r.uri));
        m_table->setItem(row, Source, source);
        m_table->setItem(row, Format, new QTableWidgetItem(QString::fromStdString(r.format)));
        auto *status = new QTableWidgetItem(failed ? tr("cannot be read") : tr("ready"));
        if (failed) {
            status->setForeground(QColor(0xb0, 0x20, 0x20));
            status->setToolTip(QString::fromStdString(r.errorText));
        }
        m_table->setItem(row, Status, status);
        m_table->setItem(row, Runs, numberItem(failed ? 0 : r.runs));
        m_table->setItem(row, Scenarios, numberItem(failed ? 0 : r.scenarios));
        m_table->setItem(row, Metrics, numberItem(failed ? 0 : r.metrics));
        m_table->setItem(row, Warnings, numberItem(int64_t(r.warnings.size())));
    }
    m_table->resizeColumnsToContents();
    m_table->horizontalHeader()->setSectionResizeMode(Source, QHeaderView::Stretch);
    const int failed = int(reports.size()) - readable;
    m_status->setText(
        failed == 0
            ? tr("%n source(s) ready: %1 run(s). Nothing is written until you import.", nullptr,
                 readable)
                  .arg(runs)
            : tr("%1 of %2 sources ready; %3 cannot be read and will be left out.")
                  .arg(readable)
                  .arg(reports.size())
                  .arg(failed));
    for (QAbstractButton *b : m_buttons->buttons())
        if (m_buttons->buttonRole(b) == QDialogButtonBox::AcceptRole)
            b->setEnabled(readable > 0);
    if (!reports.empty())
        m_table->setCurrentCell(0, 0);
    m_ready = true;
    emit previewFinished();
}

QStringList ImportPreviewDialog::importableSources() const
{
    QStringList out;
    for (size_t i = 0; i < m_reports.size(); ++i)
        if (m_reports[i].status != "failed" && !m_origins.value(int(i)).isEmpty())
            out << m_origins.value(int(i));
    return out;
}

UrlChoice askImportUrl(QWidget *parent)
{
    QDialog dialog(parent);
    dialog.setWindowTitle(QObject::tr("Import from a URL"));
    auto *form = new QFormLayout(&dialog);
    auto *url = new QLineEdit(&dialog);
    url->setPlaceholderText(QStringLiteral("https://ci.example.com/results/nightly.jsonl"));
    url->setMinimumWidth(460);
    form->addRow(QObject::tr("URL:"), url);
    auto *insecure = new QCheckBox(
        QObject::tr("Do not verify the server's TLS certificate (insecure)"), &dialog);
    form->addRow(QString(), insecure);
    form->addRow(new QLabel(QObject::tr("A bearer token is read from PLIMSOLL_HTTP_BEARER and "
                                        "basic credentials from ~/.netrc; neither is stored."),
                            &dialog));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    QObject::connect(url, &QLineEdit::textChanged, &dialog, [buttons](const QString &text) {
        const QUrl u(text.trimmed());
        buttons->button(QDialogButtonBox::Ok)
            ->setEnabled(u.isValid() && (u.scheme() == QLatin1String("http") ||
                                         u.scheme() == QLatin1String("https")) &&
                         !u.host().isEmpty());
    });
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return {};
    return {url->text().trimmed(), insecure->isChecked()};
}

} // namespace plimsoll
