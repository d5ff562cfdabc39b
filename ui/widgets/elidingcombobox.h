#pragma once
// A combo box whose closed face elides its current text in the middle when it is narrower than
// the text, so a long run key keeps both its start and the time at its end ("sample:korvet-re…
// (2026-08-11 00:00:00)") instead of being cut off at the right edge. The list it opens shows
// every entry whole; hovering an elided face shows the whole current text.

#include <QComboBox>

namespace plimsoll {

class ElidingComboBox : public QComboBox
{
    Q_OBJECT
public:
    explicit ElidingComboBox(QWidget *parent = nullptr);

    // What the closed combo box shows: currentText(), elided to the room its face has.
    QString shownText() const;

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
};

} // namespace plimsoll
