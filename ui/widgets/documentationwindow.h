#pragma once
// Help > Documentation: the user's manual (docs/), shipped inside the binary (resources,
// readable offline) and rendered from Markdown by Qt. One entry per page in a list beside the
// text — the task pages, the window's pages (one per view), the command reference — with a
// search that keeps the pages mentioning every word typed. Links between pages open the page
// linked to; Esc closes the window. The developer's pages (design, contributing, reliability,
// performance) are not part of it.

#include <QString>
#include <QWidget>

#include <vector>

class QLineEdit;
class QListWidget;
class QTextBrowser;
class QUrl;

namespace plimsoll {

struct DocumentationPage
{
    QString path;     // relative to docs/: "sizing.md", "window/trends.md"
    QString title;    // its first "#" heading as a reader sees it (no backticks)
    QString markdown; // the page as written
};

// The pages of the manual in reading order, each read from ":/docs/<path>". A page missing from
// the build is left out.
std::vector<DocumentationPage> shippedDocumentation();

// The paths of the manual's pages in reading order, relative to docs/ (what a build ships).
const QStringList &documentationPagePaths();

// The page of the window's Help for a view ("trends" → "window/trends.md").
QString documentationPageForView(const QString &viewKey);

// The first "#" heading of a Markdown text, without backticks; `fallback` when there is none.
QString documentationTitle(const QString &markdown, const QString &fallback);

// The Markdown as Qt's renderer needs it: a pipe escaped inside a table cell (`\|`, as GitHub
// reads it) becomes U+E000, which the window shows as "|" once the table is laid out.
QString markdownForDisplay(const QString &markdown);

class DocumentationWindow : public QWidget
{
    Q_OBJECT
public:
    explicit DocumentationWindow(QWidget *parent = nullptr);

    // Shows the page at `path` (relative to docs/); false if there is none.
    bool showPage(const QString &path);
    // Shows the first page whose title contains `title` (ignoring case); false if none.
    bool showSection(const QString &title);
    // The path of the page shown.
    QString currentPage() const;

    QListWidget *sectionList() const { return m_list; }
    QTextBrowser *textView() const { return m_text; }
    QLineEdit *searchField() const { return m_search; }

protected:
    void keyPressEvent(QKeyEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void filter(const QString &words);
    void showRow(int row);
    void followLink(const QUrl &url);
    void fitImages();

    std::vector<DocumentationPage> m_pages;
    QLineEdit *m_search = nullptr;
    QListWidget *m_list = nullptr;
    QTextBrowser *m_text = nullptr;
};

} // namespace plimsoll
