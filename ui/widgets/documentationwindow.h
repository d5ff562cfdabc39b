#pragma once
// Help > Documentation: the README shipped inside the binary (resources, readable offline),
// one entry per section in a list beside the text, with a search that keeps the sections
// mentioning every word typed. Sections are the README's "##" headings, each shown with its
// "###" subsections; the text is rendered from Markdown by Qt.

#include <QString>
#include <QWidget>

#include <vector>

class QLineEdit;
class QListWidget;
class QTextBrowser;

namespace plimsoll {

struct DocumentationSection
{
    QString title;    // the heading as a reader sees it (no backticks)
    QString markdown; // the heading and everything up to the next section
};

// The "##" sections of a Markdown text, in order; what stands before the first one is a
// section titled by the "#" heading (or "Introduction"). Headings inside code fences are text.
std::vector<DocumentationSection> documentationSections(const QString &markdown);

// The README as shipped (":/docs/README.md").
QString shippedDocumentation();

class DocumentationWindow : public QWidget
{
    Q_OBJECT
public:
    explicit DocumentationWindow(QWidget *parent = nullptr);

    // Shows the first section whose title contains `title` (ignoring case); false if none.
    bool showSection(const QString &title);

    QListWidget *sectionList() const { return m_list; }
    QTextBrowser *textView() const { return m_text; }
    QLineEdit *searchField() const { return m_search; }

private:
    void filter(const QString &words);
    void showRow(int row);

    std::vector<DocumentationSection> m_sections;
    QLineEdit *m_search = nullptr;
    QListWidget *m_list = nullptr;
    QTextBrowser *m_text = nullptr;
};

} // namespace plimsoll
