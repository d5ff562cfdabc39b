#pragma once
// File > Import… and File > Import URL…: before anything is written, a dry run of every
// chosen source shows what it will become (format, runs, scenarios, metrics, warnings, or why
// it cannot be read); Import then commits the sources that can be, one transaction each.
//
// Two Prometheus scrapes chosen together (exactly two files, each one scrape) are offered as a
// pair: a checkbox, on by default when they pair cleanly, makes them one source and one run of
// the interval between them (importers/prometheus/scrapepairimport.h), in scrape order whatever order they
// were chosen in. The window has no --interval: the scrapes' times or the files'
// modification times give it, as the preview's warnings say.
//
// Threading contract: the dry run runs on the global thread pool with a Store connection of
// its own; the dialog is used from the UI thread only.

#include "importers/importservice.h"
#include "importers/prometheus/scrapepairimport.h"

#include <QDialog>
#include <QFutureWatcher>
#include <QStringList>

#include <optional>
#include <utility>
#include <vector>

class QCheckBox;
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

    // Sources whose dry run succeeded: what Import commits (none when the scrapes are paired).
    QStringList importableSources() const;
    // The two scrapes (before, after) when they are offered and chosen as a pair.
    std::optional<std::pair<QString, QString>> pairedScrapes() const;
    bool pairOffered() const { return m_pair.has_value(); }
    bool insecure() const { return m_insecure; }
    bool previewReady() const { return m_ready; }
    const std::vector<SourceReport> &reports() const { return m_reports; }

    // What a dry run found: each source, and the scrapes as a pair when they can be one.
    struct Preview
    {
        std::vector<std::pair<QString, SourceReport>> sources;
        std::optional<ScrapePairReport> pair;
    };

signals:
    void previewFinished();

private:
    void showReports(const std::vector<SourceReport> &reports);
    void showPreview();
    bool showingPair() const; // the pair is offered and its box checked

    QStringList m_sources;
    bool m_insecure = false;
    bool m_ready = false;
    std::vector<SourceReport> m_reports;
    QStringList m_origins; // per report: the source string Import uses
    std::vector<std::pair<QString, SourceReport>> m_each;
    std::optional<ScrapePairReport> m_pair;
    QFutureWatcher<Preview> m_watcher;
    QLabel *m_status = nullptr;
    QCheckBox *m_pairBox = nullptr;
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
