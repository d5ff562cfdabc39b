#include "ui/importpreviewdialog.h"

#include "model/store/store.h"
#include "ui/backgroundpool.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileInfo>
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

using Preview = ImportPreviewDialog::Preview;

bool isUrl(const QString &source)
{
    return source.startsWith(QLatin1String("http://")) ||
           source.startsWith(QLatin1String("https://"));
}

// Each report with the source string to import it by (the file a directory expanded to, or
// the URL as the user typed it: the report's uri has credentials redacted), and two single
// Prometheus scrapes as a pair, in scrape order.
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
            for (SourceReport &r : service.importPath(request)) {
                const QString origin = isUrl(source) ? source : QString::fromStdString(r.uri);
                out.sources.emplace_back(origin, std::move(r));
            }
        }
        const bool twoScrapes =
            sources.size() == 2 && out.sources.size() == 2 &&
            std::all_of(sources.begin(), sources.end(),
                        [](const QString &s) { return !isUrl(s) && QFileInfo(s).isFile(); }) &&
            std::all_of(out.sources.begin(), out.sources.end(), [](const auto &each) {
                return each.second.status != "failed" && each.second.format == "prometheus";
            });
        if (twoScrapes) {
            const auto [before, after] =
                scrapeOrder(sources[0].toStdString(), sources[1].toStdString());
            ScrapePairRequest request;
            request.before = before;
            request.after = after;
            request.dryRun = true;
            out.pair = importScrapePair(service, request);
        }
    } catch (const std::exception &e) {
        SourceReport failed;
        failed.uri = storePath;
        failed.status = "failed";
        failed.errorText = e.what();
        out.sources.emplace_back(QString(), failed);
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

    m_pairBox = new QCheckBox(this);
    m_pairBox->setObjectName(QStringLiteral("pairScrapes"));
    m_pairBox->setVisible(false);
    connect(m_pairBox, &QCheckBox::toggled, this, [this] { showPreview(); });
    layout->addWidget(m_pairBox);

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
        const bool paired = showingPair();
        QString text;
        if (paired && m_pair->intervalS)
            text += tr("Interval %1 s, from the %2.\n")
                        .arg(QString::number(*m_pair->intervalS, 'g', QLocale::FloatingPointShortest))
                        .arg(QString::fromStdString(m_pair->intervalFrom));
        if (r.status == "failed")
            text += QString::fromStdString(r.errorText) + QLatin1Char('\n');
        for (size_t i = 0; i < r.warnings.size(); ++i) {
            const ImportWarning &w = r.warnings[i];
            // A pair's warnings name the file their line is in.
            const QString file =
                paired ? QFileInfo(QString::fromStdString(m_pair->fileOfWarning(i))).fileName()
                       : QString();
            QString where = file;
            if (w.line > 0)
                where = file.isEmpty() ? tr("line %1").arg(w.line)
                                       : tr("%1, line %2").arg(file).arg(w.line);
            text += (where.isEmpty() ? QString() : where + QStringLiteral(": ")) +
                    QString::fromStdString(w.detail) + QLatin1Char('\n');
        }
        m_details->setPlainText(text.isEmpty() ? tr("No warnings.") : text);
    });
    connect(&m_watcher, &QFutureWatcher<Preview>::finished, this, [this] {
        const Preview preview = m_watcher.result();
        m_each = preview.sources;
        m_pair = preview.pair;
        if (m_pair) {
            const QSignalBlocker quiet(m_pairBox);
            m_pairBox->setText(
                tr("Pair the two Prometheus scrapes as one interval: %1 (before) → %2 (after)")
                    .arg(QFileInfo(QString::fromStdString(m_pair->beforeName)).fileName(),
                         QFileInfo(QString::fromStdString(m_pair->afterName)).fileName()));
            m_pairBox->setChecked(m_pair->report.status != "failed");
            m_pairBox->setVisible(true);
        }
        showPreview();
    });
    // On the window's own pool, never the global one painting needs (ui/backgroundpool.h).
    m_watcher.setFuture(QtConcurrent::run(backgroundPool(), dryRun, storePath.toStdString(), sources, insecure));
}

ImportPreviewDialog::~ImportPreviewDialog()
{
    // A dry run still reading (a slow URL) is left to finish on its own; its result is dropped.
    m_watcher.disconnect(this);
}

void ImportPreviewDialog::showPreview()
{
    m_origins.clear();
    std::vector<SourceReport> reports;
    if (showingPair()) {
        m_origins << QString();
        reports.push_back(m_pair->report);
    } else {
        for (const auto &[origin, report] : m_each) {
            m_origins << origin;
            reports.push_back(report);
        }
    }
    showReports(reports);
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

bool ImportPreviewDialog::showingPair() const
{
    return m_pair && m_pairBox->isChecked();
}

std::optional<std::pair<QString, QString>> ImportPreviewDialog::pairedScrapes() const
{
    if (!showingPair() || m_pair->report.status == "failed")
        return std::nullopt;
    return std::pair{QString::fromStdString(m_pair->beforeName),
                     QString::fromStdString(m_pair->afterName)};
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
