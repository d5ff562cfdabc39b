#pragma once
// A one-line label that gives up width instead of taking it: the text it is given is shown whole
// when it fits and elided (in the middle by default, so a path keeps its file name) when the
// layout gives it less room; the whole text is always its tooltip. Its minimum width is a few
// characters, so a long store path in the status bar never widens the window.

#include <QLabel>

namespace plimsoll {

class ElidingLabel : public QLabel
{
    Q_OBJECT
public:
    explicit ElidingLabel(const QString &text = QString(), QWidget *parent = nullptr,
                          Qt::TextElideMode mode = Qt::ElideMiddle);

    // The whole text; text() is what is on screen (elided or not).
    QString fullText() const { return m_fullText; }
    void setFullText(const QString &text);

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void updateShownText();

    QString m_fullText;
    Qt::TextElideMode m_mode;
};

} // namespace plimsoll
