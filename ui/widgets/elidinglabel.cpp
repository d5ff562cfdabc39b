#include "ui/widgets/elidinglabel.h"

#include <QResizeEvent>

namespace plimsoll {

namespace {

// Enough for "/t…b" : the label stays recognisable at its narrowest.
constexpr int kMinimumChars = 8;

} // namespace

ElidingLabel::ElidingLabel(const QString &text, QWidget *parent, Qt::TextElideMode mode)
    : QLabel(parent), m_mode(mode)
{
    setTextFormat(Qt::PlainText);
    setWordWrap(false);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    setFullText(text);
}

void ElidingLabel::setFullText(const QString &text)
{
    m_fullText = text;
    setToolTip(text);
    updateShownText();
    updateGeometry();
}

QSize ElidingLabel::minimumSizeHint() const
{
    const QSize hint = QLabel::minimumSizeHint();
    const int narrowest = fontMetrics().averageCharWidth() * kMinimumChars;
    return {std::min(hint.width(), narrowest + contentsMargins().left() +
                                       contentsMargins().right()),
            hint.height()};
}

QSize ElidingLabel::sizeHint() const
{
    const QMargins m = contentsMargins();
    return {fontMetrics().horizontalAdvance(m_fullText) + m.left() + m.right() + 2 * margin(),
            QLabel::sizeHint().height()};
}

void ElidingLabel::resizeEvent(QResizeEvent *event)
{
    QLabel::resizeEvent(event);
    updateShownText();
}

void ElidingLabel::updateShownText()
{
    const int room = contentsRect().width() - 2 * margin();
    const QString shown = fontMetrics().elidedText(m_fullText, m_mode, std::max(room, 0));
    if (shown != text())
        QLabel::setText(shown);
}

} // namespace plimsoll
