#include "ui/widgets/viewframe.h"

#include <QEvent>
#include <QLayout>
#include <QResizeEvent>

#include <algorithm>

namespace plimsoll {

ViewFrame::ViewFrame(QWidget *view, QWidget *parent) : QWidget(parent), m_view(view)
{
    view->setParent(this);
}

QSize ViewFrame::sizeHint() const
{
    return m_view->sizeHint();
}

QSize ViewFrame::minimumSizeHint() const
{
    QSize least = m_view->minimumSizeHint().expandedTo(m_view->minimumSize());
    const QLayout *layout = m_view->layout();
    if (layout && layout->hasHeightForWidth() && width() > 0)
        least.setHeight(std::max(least.height(), layout->totalMinimumHeightForWidth(
                                                     std::max(width(), least.width()))));
    return least;
}

bool ViewFrame::event(QEvent *event)
{
    if (event->type() == QEvent::LayoutRequest)
        updateGeometry(); // the view's minimum changed: the page scrolls anew
    return QWidget::event(event);
}

void ViewFrame::resizeEvent(QResizeEvent *event)
{
    m_view->setGeometry(rect());
    if (event->oldSize().width() != width())
        updateGeometry(); // another width wraps to another least height
}

} // namespace plimsoll
