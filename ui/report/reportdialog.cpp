#include "ui/report/reportdialog.h"
#include "export/filewriter.h"

#include "model/report/reportmarkdown.h"
#include "model/store/store.h"
#include "ui/backgroundpool.h"
#include "ui/latesttask.h"
#include "ui/charts/reportrenderer.h"
#include "ui/widgets/evidencedialog.h"

#include <plimsoll/version.h>

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPixmap>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace plimsoll {

ReportDialog::ReportDialog(const QString &storePath, const SizingInputs &inputs, const EvidenceSelection &evidence,
                           QWidget *parent)
    : QDialog(parent), m_storePath(storePath), m_inputs(inputs), m_evidence(evidence)
{
    setObjectName(QStringLiteral("reportDialog"));
    setWindowTitle(tr("Export Report"));
    m_loader = new LatestTask(this);
    m_writer = new QFutureWatcher<QString>(this);

    m_format = new QComboBox(this);
    m_format->setObjectName(QStringLiteral("reportFormatCombo"));
    m_format->addItem(tr("PDF"), QStringLiteral("pdf"));
    m_format->addItem(tr("HTML (one self-contained file)"), QStringLiteral("html"));
    m_format->addItem(tr("Markdown"), QStringLiteral("md"));
    m_status = new QLabel(tr("Fitting the models to the runs in the store…"), this);
    m_status->setObjectName(QStringLiteral("reportStatus"));
    m_status->setWordWrap(true);

    auto *pagesBox = new QWidget;
    pagesBox->setObjectName(QStringLiteral("reportPages"));
    pagesBox->setStyleSheet(QStringLiteral("#reportPages { background: #808080; }"));
    m_pages = new QVBoxLayout(pagesBox);
    m_pages->setSpacing(12);
    m_scroll = new QScrollArea(this);
    m_scroll->setObjectName(QStringLiteral("reportPreview"));
    m_scroll->setWidget(pagesBox);
    m_scroll->setWidgetResizable(true);
    // The preview scrolls, so it can give way on a small screen; the status under it (two
    // wrapped lines for a sizing that could not be made) and the buttons never can.
    m_scroll->setMinimumSize(480, 320);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_save = buttons->addButton(tr("Save…"), QDialogButtonBox::AcceptRole);
    m_save->setObjectName(QStringLiteral("reportSaveButton"));
    m_save->setEnabled(false);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_save, &QPushButton::clicked, this, &ReportDialog::chooseFile);

    // The runs the report rests on, as the Sizing view chose them, and the same controls to change them.
    m_evidenceLabel = new QLabel(this);
    m_evidenceLabel->setObjectName(QStringLiteral("reportEvidence"));
    m_evidenceLabel->setWordWrap(true);
    m_evidenceLabel->setTextFormat(Qt::PlainText);
    m_samples = newSamplesCombo(this, QStringLiteral("reportSamplesCombo"), m_evidence.samples, [this](SampleRuns samples) {
        EvidenceSelection sel = m_evidence;
        sel.samples = samples;
        if (!(sel == m_evidence))
            setEvidenceSelection(sel);
    });
    auto *choose = new QPushButton(tr("Choose runs…"), this);
    choose->setObjectName(QStringLiteral("reportChooseRunsButton"));
    choose->setToolTip(tr("The runs the report rests on: every run, a filter, or runs picked by hand"));
    connect(choose, &QPushButton::clicked, this, &ReportDialog::chooseRuns);

    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Format"), this));
    top->addWidget(m_format);
    top->addStretch();
    top->addWidget(m_samples);
    top->addWidget(choose);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_evidenceLabel);
    layout->addWidget(m_scroll, 1);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    QSize size(680, 780); // a page's width and most of its height
    if (const QScreen *onScreen = screen())
        size = size.boundedTo(onScreen->availableSize());
    resize(size);

    connect(m_writer, &QFutureWatcher<QString>::finished, this, [this] {
        const QString error = m_writer->result();
        m_status->setText(error.isEmpty() ? tr("Saved %1").arg(m_savingPath)
                                          : error.left(1).toUpper() + error.mid(1));
        m_save->setEnabled(true);
        emit saved(m_savingPath, error.isEmpty(), error);
    });
}

ReportDialog::~ReportDialog()
{
    m_writer->waitForFinished(); // the worker holds bytes and a path, never this
}

void ReportDialog::setEvidenceSelection(const EvidenceSelection &selection)
{
    m_evidence = selection;
    {
        const QSignalBlocker block(m_samples);
        m_samples->setCurrentIndex(m_samples->findData(int(selection.samples)));
    }
    start();
}

void ReportDialog::chooseRuns()
{
    auto *dialog = new EvidenceDialog(m_storePath, m_evidence, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { setEvidenceSelection(dialog->selection()); });
    dialog->open();
}

void ReportDialog::showEvidence()
{
    QString text = tr("Evidence: %1").arg(QString::fromStdString(m_evidence.describe()));
    if (m_data) {
        text += tr(" (%1)").arg(m_data->runs.size() == 1 ? tr("1 run") : tr("%1 runs").arg(m_data->runs.size()));
        if (!m_data->evidenceNote.empty())
            text += QStringLiteral(" · ") + QString::fromStdString(m_data->evidenceNote);
    }
    m_evidenceLabel->setText(text);
}

void ReportDialog::start()
{
    ReportRequest request;
    request.inputs = m_inputs;
    request.evidence = m_evidence;
    m_data.reset();
    m_save->setEnabled(false);
    // The previous preview's pages go: the next one follows the new selection.
    while (QLayoutItem *item = m_pages->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_status->setText(tr("Fitting the models to %1…").arg(QString::fromStdString(m_evidence.describe())));
    showEvidence();
    m_loader->start(
        [path = m_storePath.toStdString(), request] {
            return std::make_shared<const ReportData>(collectReport(Store(path), request, kVersion));
        },
        [this](const std::shared_ptr<const ReportData> &data) {
            m_data = data;
            m_doc = composeReport(*data, reportTimestamp());
            showPreview();
        },
        [this](const QString &error) {
            m_status->setText(error);
            emit failed(error);
        });
}

void ReportDialog::showPreview()
{
    showEvidence();
    const std::vector<QImage> pages = renderReportPages(m_doc, *m_data, 96);
    m_pageCount = int(pages.size());
    for (const QImage &page : pages) {
        auto *label = new QLabel;
        label->setPixmap(QPixmap::fromImage(page));
        label->setAlignment(Qt::AlignHCenter);
        m_pages->addWidget(label);
    }
    m_pages->addStretch();
    m_save->setEnabled(true);
    m_status->setText(m_data->ok ? tr("%1 pages: %2 brokers, %3 Redis nodes, %4 shards, %5 partitions")
                                       .arg(m_pageCount)
                                       .arg(m_data->sizing.brokers)
                                       .arg(m_data->sizing.redisNodes)
                                       .arg(m_data->sizing.shards)
                                       .arg(m_data->sizing.partitions)
                                 : QString::fromStdString(m_data->error));
    emit previewReady(m_pageCount);
}

QByteArray ReportDialog::render(const QString &format) const
{
    if (!m_data)
        return {};
    if (format == QLatin1String("md")) {
        const std::string md = renderMarkdown(m_doc, *m_data);
        return QByteArray(md.data(), qsizetype(md.size()));
    }
    return format == QLatin1String("html") ? renderReportHtml(m_doc, *m_data)
                                           : renderReportPdf(m_doc, *m_data);
}

void ReportDialog::chooseFile()
{
    const QString format = m_format->currentData().toString();
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Report"), QStringLiteral("plimsoll-report.") + format,
        tr("%1 (*.%2)").arg(m_format->currentText(), format));
    if (!path.isEmpty())
        saveTo(path, format);
}

void ReportDialog::saveTo(const QString &path, const QString &format)
{
    const QByteArray bytes = render(format); // charts: UI thread
    m_savingPath = path;
    m_save->setEnabled(false);
    m_status->setText(tr("Saving %1…").arg(path));
    m_writer->setFuture(QtConcurrent::run(backgroundPool(), [path, bytes]() -> QString {
        const std::string error =
            writeFileWhole(path.toStdString(), std::string_view(bytes.constData(), std::size_t(bytes.size())));
        return QString::fromStdString(error);
    }));
}

} // namespace plimsoll
