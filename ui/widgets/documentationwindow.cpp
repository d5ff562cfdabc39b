#include "ui/widgets/documentationwindow.h"

#include <QFile>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QRegularExpression>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace plimsoll {

namespace {

QString readableHeading(QString heading)
{
    heading.remove(QLatin1Char('`'));
    return heading.trimmed();
}

} // namespace

std::vector<DocumentationSection> documentationSections(const QString &markdown)
{
    std::vector<DocumentationSection> sections;
    DocumentationSection current{QObject::tr("Introduction"), {}};
    bool inFence = false;
    const QStringList lines = markdown.split(QLatin1Char('\n'));
    for (const QString &line : lines) {
        if (line.startsWith(QLatin1String("```")) || line.startsWith(QLatin1String("~~~")))
            inFence = !inFence;
        if (!inFence && line.startsWith(QLatin1String("## "))) {
            if (!current.markdown.trimmed().isEmpty())
                sections.push_back(std::move(current));
            current = {readableHeading(line.mid(3)), {}};
        } else if (!inFence && sections.empty() && current.markdown.isEmpty() &&
                   line.startsWith(QLatin1String("# "))) {
            current.title = readableHeading(line.mid(2));
        }
        current.markdown += line + QLatin1Char('\n');
    }
    if (!current.markdown.trimmed().isEmpty())
        sections.push_back(std::move(current));
    return sections;
}

QString shippedDocumentation()
{
    QFile file(QStringLiteral(":/docs/README.md"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

DocumentationWindow::DocumentationWindow(QWidget *parent)
    : QWidget(parent, Qt::Window), m_sections(documentationSections(shippedDocumentation()))
{
    setWindowTitle(tr("Plimsoll Documentation"));
    setObjectName(QStringLiteral("documentationWindow"));
    m_search = new QLineEdit(this);
    m_search->setPlaceholderText(tr("Search the documentation"));
    m_search->setClearButtonEnabled(true);
    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("documentationSections"));
    // Long headings wrap rather than hide behind a scroll bar.
    m_list->setWordWrap(true);
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_list->setResizeMode(QListView::Adjust);
    for (const DocumentationSection &s : m_sections) {
        auto *item = new QListWidgetItem(s.title, m_list);
        item->setToolTip(s.title);
    }
    m_text = new QTextBrowser(this);
    m_text->setOpenExternalLinks(true);

    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_search);
    leftLayout->addWidget(m_list, 1);
    auto *splitter = new QSplitter(this);
    splitter->addWidget(left);
    splitter->addWidget(m_text);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({260, 640});
    auto *layout = new QHBoxLayout(this);
    layout->addWidget(splitter);

    if (m_sections.empty())
        m_text->setPlainText(tr("The documentation is missing from this build."));
    connect(m_list, &QListWidget::currentRowChanged, this, &DocumentationWindow::showRow);
    connect(m_search, &QLineEdit::textChanged, this, &DocumentationWindow::filter);
    m_list->setCurrentRow(0);
    resize(960, 680);
}

bool DocumentationWindow::showSection(const QString &title)
{
    for (int row = 0; row < m_list->count(); ++row) {
        if (!m_list->item(row)->isHidden() &&
            m_list->item(row)->text().contains(title, Qt::CaseInsensitive)) {
            m_list->setCurrentRow(row);
            return true;
        }
    }
    return false;
}

void DocumentationWindow::filter(const QString &words)
{
    const QStringList wanted = words.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
    int firstShown = -1;
    for (int row = 0; row < m_list->count(); ++row) {
        const QString &text = m_sections[size_t(row)].markdown;
        bool match = true;
        for (const QString &w : wanted)
            match = match && text.contains(w, Qt::CaseInsensitive);
        m_list->item(row)->setHidden(!match);
        if (match && firstShown < 0)
            firstShown = row;
    }
    if (firstShown < 0) {
        m_text->setPlainText(tr("No section mentions \"%1\".").arg(words.trimmed()));
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
    if (row < 0 || size_t(row) >= m_sections.size())
        return;
    m_text->setMarkdown(m_sections[size_t(row)].markdown);
    const QString first = m_search->text().trimmed().split(QLatin1Char(' ')).value(0);
    if (!first.isEmpty())
        m_text->find(first);
}

} // namespace plimsoll
