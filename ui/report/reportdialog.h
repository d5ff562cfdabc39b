#pragma once
// File > Export Report…: the sizing report for the Sizing view's current inputs and runs (its
// EvidenceSelection), previewed as the PDF's pages, saved as PDF, HTML or Markdown. The runs it
// rests on are shown above the preview and can be changed there with the Sizing view's chooser
// (EvidenceDialog) and samples toggle; the preview follows.
//
// Threading: the store is read and the models fitted on a worker (LatestTask); the charts and
// pages are drawn on the UI thread (QCharts are graphics items, a few hundred ms); the file is
// written on a worker. Nothing here blocks on I/O.

#include "model/report/reportdocument.h"

#include <QDialog>
#include <QFutureWatcher>

#include <memory>

class QComboBox;
class QLabel;
class QPushButton;
class QScrollArea;
class QVBoxLayout;

namespace plimsoll {

class LatestTask;

class ReportDialog : public QDialog
{
    Q_OBJECT
public:
    ReportDialog(const QString &storePath, const SizingInputs &inputs, const EvidenceSelection &evidence,
                 QWidget *parent = nullptr);
    ~ReportDialog() override;

    // Reads and fits in the background; previewReady() or failed() follows.
    void start();

    bool ready() const { return m_data != nullptr; }
    int pageCount() const { return m_pageCount; }
    QComboBox *formatCombo() const { return m_format; }
    QLabel *statusLabel() const { return m_status; }
    QLabel *evidenceLabel() const { return m_evidenceLabel; }
    QComboBox *samplesCombo() const { return m_samples; } // auto, include, exclude
    const EvidenceSelection &evidenceSelection() const { return m_evidence; }
    // Reads and fits again from `selection` (previewReady or failed follows).
    void setEvidenceSelection(const EvidenceSelection &selection);
    // Opens the run chooser (EvidenceDialog) over the dialog; returns at once.
    void chooseRuns();
    const ReportData *data() const { return m_data.get(); }
    // The report in `format` ("pdf", "html", "md"); empty before ready().
    QByteArray render(const QString &format) const;
    // Renders now, writes in the background; saved() follows.
    void saveTo(const QString &path, const QString &format);

signals:
    void previewReady(int pages);
    void failed(const QString &message);
    void saved(const QString &path, bool ok, const QString &error);

private:
    void showPreview();
    void showEvidence();
    void chooseFile();

    QString m_storePath;
    SizingInputs m_inputs;
    EvidenceSelection m_evidence;
    QLabel *m_evidenceLabel = nullptr;
    QComboBox *m_samples = nullptr;
    LatestTask *m_loader = nullptr;
    std::shared_ptr<const ReportData> m_data;
    ReportDocument m_doc;
    int m_pageCount = 0;
    QComboBox *m_format = nullptr;
    QScrollArea *m_scroll = nullptr;
    QVBoxLayout *m_pages = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_save = nullptr;
    QFutureWatcher<QString> *m_writer = nullptr;
    QString m_savingPath;
};

} // namespace plimsoll
