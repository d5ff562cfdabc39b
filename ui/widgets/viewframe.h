#pragma once
// What a view's page in the main window scrolls: the view at the page's size, never below the
// view's minimum, and never below what its wrapped lines need at the width it has.
//
// QScrollArea would take a view's height-for-width (its preferred height) as the least it may
// give and scroll views that fit; the frame offers the least height instead, so a page scrolls
// only when the view truly needs more room than the window has.

#include <QWidget>

namespace plimsoll {

class ViewFrame : public QWidget
{
public:
    // Takes `view` as its child.
    explicit ViewFrame(QWidget *view, QWidget *parent = nullptr);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    QWidget *m_view;
};

} // namespace plimsoll
