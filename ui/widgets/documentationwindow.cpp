#include "ui/widgets/documentationwindow.h"

#include <QAbstractTextDocumentLayout>
#include <QDesktopServices>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QImage>
#include <QKeySequence>
#include <QLineEdit>
#include <QListWidget>
#include <QRegularExpression>
#include <QScrollBar>
#include <QKeyEvent>
#include <QSplitter>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextDocumentFragment>
#include <QTextFragment>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>

namespace plimsoll {

namespace {

constexpr QChar kEscapedPipe(0xE000);

} // namespace

const QStringList &documentationPagePaths()
{
    // Reading order: the contents, the tasks, the window (one page per view, in sidebar order),
    // then the reference.
    static const QStringList paths = {
        QStringLiteral("index.md"),
        QStringLiteral("command-line.md"),
        QStringLiteral("importing.md"),
        QStringLiteral("samples.md"),
        QStringLiteral("sizing.md"),
        QStringLiteral("trends.md"),
        QStringLiteral("benchmarks.md"),
        QStringLiteral("fleets.md"),
        QStringLiteral("store.md"),
        QStringLiteral("reports.md"),
        QStringLiteral("window/index.md"),
        QStringLiteral("window/library.md"),
        QStringLiteral("window/trends.md"),
        QStringLiteral("window/changes.md"),
        QStringLiteral("window/compare.md"),
        QStringLiteral("window/bench.md"),
        QStringLiteral("window/scaling.md"),
        QStringLiteral("window/sizing.md"),
        QStringLiteral("window/placement.md"),
        QStringLiteral("window/latency-budget.md"),
        QStringLiteral("reference/commands.md"),
    };
    return paths;
}

QString documentationPageForView(const QString &viewKey)
{
    return QStringLiteral("window/%1.md").arg(viewKey);
}

QString documentationTitle(const QString &markdown, const QString &fallback)
{
    bool inFence = false;
    for (const QString &line : markdown.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("```")) || line.startsWith(QLatin1String("~~~")))
            inFence = !inFence;
        if (!inFence && line.startsWith(QLatin1String("# ")))
            return line.mid(2).remove(QLatin1Char('`')).trimmed();
    }
    return fallback;
}

QString markdownForDisplay(const QString &markdown)
{
    QStringList lines = markdown.split(QLatin1Char('\n'));
    bool inFence = false;
    for (QString &line : lines) {
        if (line.startsWith(QLatin1String("```")) || line.startsWith(QLatin1String("~~~")))
            inFence = !inFence;
        if (!inFence && line.startsWith(QLatin1Char('|')))
            line.replace(QLatin1String("\\|"), QString(kEscapedPipe));
    }
    return lines.join(QLatin1Char('\n'));
}

std::vector<DocumentationPage> shippedDocumentation()
{
    std::vector<DocumentationPage> pages;
    for (const QString &path : documentationPagePaths()) {
        QFile file(QStringLiteral(":/docs/") + path);
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QString markdown = QString::fromUtf8(file.readAll());
        pages.push_back({path, documentationTitle(markdown, path), markdown});
    }
    return pages;
}

DocumentationWindow::DocumentationWindow(QWidget *parent)
    : QWidget(parent, Qt::Window), m_pages(shippedDocumentation())
{
    setWindowTitle(tr("Plimsoll Manual"));
    setObjectName(QStringLiteral("documentationWindow"));
    m_search = new QLineEdit(this);
    m_search->setPlaceholderText(tr("Search the manual"));
    m_search->setClearButtonEnabled(true);
    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("documentationSections"));
    // Long titles wrap rather than hide behind a scroll bar.
    m_list->setWordWrap(true);
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_list->setResizeMode(QListView::Adjust);
    for (const DocumentationPage &page : m_pages) {
        // The window's pages are indented under "The window".
        const bool view = page.path.startsWith(QLatin1String("window/")) && page.path != QLatin1String("window/index.md");
        auto *item = new QListWidgetItem((view ? QStringLiteral("    ") : QString()) + page.title, m_list);
        item->setToolTip(page.title);
        item->setData(Qt::UserRole, page.path);
    }
    m_text = new QTextBrowser(this);
    m_text->setObjectName(QStringLiteral("documentationText"));
    // Links between pages are followed here; links out of the manual open in the browser.
    m_text->setOpenLinks(false);
    connect(m_text, &QTextBrowser::anchorClicked, this, &DocumentationWindow::followLink);

    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_search);
    leftLayout->addWidget(m_list, 1);
    auto *splitter = new QSplitter(this);
    splitter->addWidget(left);
    splitter->addWidget(m_text);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({240, 720});
    auto *layout = new QHBoxLayout(this);
    layout->addWidget(splitter);

    if (m_pages.empty())
        m_text->setPlainText(tr("The manual is missing from this build."));
    connect(m_list, &QListWidget::currentRowChanged, this, &DocumentationWindow::showRow);
    connect(m_search, &QLineEdit::textChanged, this, &DocumentationWindow::filter);
    m_list->setCurrentRow(0);
    resize(1000, 700);
}

bool DocumentationWindow::showPage(const QString &path)
{
    const QString wanted = QDir::cleanPath(path);
    for (int row = 0; row < m_list->count(); ++row) {
        if (m_list->item(row)->data(Qt::UserRole).toString() == wanted) {
            if (m_list->item(row)->isHidden())
                m_search->clear();
            m_list->setCurrentRow(row);
            showRow(row);
            return true;
        }
    }
    return false;
}

bool DocumentationWindow::showSection(const QString &title)
{
    for (int row = 0; row < m_list->count(); ++row) {
        if (!m_list->item(row)->isHidden() && m_pages[size_t(row)].title.contains(title, Qt::CaseInsensitive)) {
            m_list->setCurrentRow(row);
            return true;
        }
    }
    return false;
}

QString DocumentationWindow::currentPage() const
{
    const int row = m_list->currentRow();
    return row < 0 ? QString() : m_list->item(row)->data(Qt::UserRole).toString();
}

void DocumentationWindow::filter(const QString &words)
{
    const QStringList wanted = words.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
    int firstShown = -1;
    for (int row = 0; row < m_list->count(); ++row) {
        const QString &text = m_pages[size_t(row)].markdown;
        bool match = true;
        for (const QString &w : wanted)
            match = match && text.contains(w, Qt::CaseInsensitive);
        m_list->item(row)->setHidden(!match);
        if (match && firstShown < 0)
            firstShown = row;
    }
    if (firstShown < 0) {
        m_text->setPlainText(tr("No page mentions \"%1\".").arg(words.trimmed()));
        return;
    }
    const int current = m_list->currentRow();
    if (current < 0 || m_list->item(current)->isHidden())
        m_list->setCurrentRow(firstShown);
    else
        showRow(current);
}

void DocumentationWindow::showRow(int row)
{
    if (row < 0 || size_t(row) >= m_pages.size())
        return;
    const DocumentationPage &page = m_pages[size_t(row)];
    // Relative images ("images/trends.png") are beside the page, in the resources.
    const QString folder = QFileInfo(page.path).path();
    QString markdown = markdownForDisplay(page.markdown);
    static const QRegularExpression image(QStringLiteral(R"((!\[[^\]]*\]\()(?![a-z]+:)([^)]+)\))"));
    markdown.replace(image, QStringLiteral("\\1qrc:/docs/") +
                                (folder == QLatin1String(".") ? QString() : folder + QLatin1Char('/')) +
                                QStringLiteral("\\2)"));
    m_text->setMarkdown(markdown);
    // The escaped pipes back as pipes, in the format they stand in (code in a table cell).
    QTextDocument *document = m_text->document();
    for (QTextCursor at = document->find(QString(kEscapedPipe)); !at.isNull();
         at = document->find(QString(kEscapedPipe), at))
        at.insertText(QStringLiteral("|"));
    fitImages();
    m_text->verticalScrollBar()->setValue(0);
    const QString first = m_search->text().trimmed().split(QLatin1Char(' ')).value(0);
    if (!first.isEmpty())
        m_text->find(first);
}

// A screenshot is shown no wider than the text view, keeping its proportions.
void DocumentationWindow::fitImages()
{
    QTextDocument *document = m_text->document();
    const double room = std::max(200, m_text->viewport()->width() - 2 * int(document->documentMargin()) - 8);
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (!fragment.isValid() || !fragment.charFormat().isImageFormat())
                continue;
            QTextImageFormat image = fragment.charFormat().toImageFormat();
            const QImage picture(QLatin1Char(':') + QUrl(image.name()).path());
            if (picture.isNull())
                continue;
            const double width = std::min<double>(room, picture.width());
            image.setWidth(width);
            image.setHeight(width * picture.height() / picture.width());
            QTextCursor cursor(document);
            cursor.setPosition(fragment.position());
            cursor.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
            cursor.setCharFormat(image);
        }
    }
}

// Esc closes the manual, as it closes a dialog (the text and the list leave Esc to their window).
void DocumentationWindow::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape && event->modifiers() == Qt::NoModifier) {
        close();
        return;
    }
    QWidget::keyPressEvent(event);
}

void DocumentationWindow::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitImages();
}

void DocumentationWindow::followLink(const QUrl &url)
{
    if (!url.scheme().isEmpty() && url.scheme() != QLatin1String("qrc")) {
        QDesktopServices::openUrl(url);
        return;
    }
    // A link between pages is relative to the page shown ("../store.md#team-store-postgresql").
    const QString from = QFileInfo(currentPage()).path();
    const QString target = QDir::cleanPath((from == QLatin1String(".") ? QString() : from + QLatin1Char('/')) + url.path());
    if (url.path().isEmpty()) {
        if (url.hasFragment())
            m_text->scrollToAnchor(url.fragment());
        return;
    }
    if (!showPage(target))
        return; // a file outside the manual (the README, a schema): nothing to show here
    if (url.hasFragment()) {
        // Qt names no anchors after headings: find the heading the fragment was made from.
        const QString words = url.fragment().replace(QLatin1Char('-'), QLatin1Char(' '));
        QTextCursor at = m_text->document()->find(QRegularExpression(
            QStringLiteral("^") + QRegularExpression::escape(words.left(12)), QRegularExpression::CaseInsensitiveOption));
        if (!at.isNull()) {
            m_text->setTextCursor(at);
            m_text->ensureCursorVisible();
        }
    }
}

} // namespace plimsoll
