#pragma once
// File > Import… and File > Import URL…: before anything is written, a dry run of every
// chosen source shows what it will become (format, runs, scenarios, metrics, warnings, or why
// it cannot be read); Import then commits the sources that can be, one transaction each.
//
// Threading contract: the dry run runs on the global thread pool with a Store connection of
// its own; the dialog is used from the UI thread only.

#include "importers/importservice.h"

#include <QDialog>
#include <QFutureWatcher>
#include <QStringList>

#include <utility>
#include <vector>

class QDialogButtonBox;
class QLabel;
class QPlainTextEdit;
class QTableWidget;

namespace plimsoll {

class ImportPreviewDialog : public QDialog
{
    Q_OBJECT
public:
    ImportPreviewDialog(const QString &storePath, const QStringList &sources, bool insecure,
                        QWidget *parent = nullptr);
    ~ImportPreviewDialog() override;

    // Sources whose dry run succeeded: what Import commits.
    QStringList importableSources() const;
    bool insecure() const { return m_insecure; }
    bool previewReady() const { return m_ready; }
    const std::vector<SourceReport> &reports() const { return m_reports; }

signals:
    void previewFinished();

private:
    void showReports(const std::vector<SourceReport> &reports);

    QStringList m_sources;
    bool m_insecure = false;
    bool m_ready = false;
    std::vector<SourceReport> m_reports;
    QStringList m_origins; // per report: the source string Import uses
    QFutureWatcher<std::vector<std::pair<QString, SourceReport>>> m_watcher;
    QLabel *m_status = nullptr;
    QTableWidget *m_table = nullptr;
    QPlainTextEdit *m_details = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

// Asks for a URL (http or https) and whether to skip TLS verification. Empty when cancelled.
struct UrlChoice
{
    QString url;
    bool insecure = false;
};
UrlChoice askImportUrl(QWidget *parent);

} // namespace plimsoll
