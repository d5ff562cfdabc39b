#include "ui/charts/chartrender.h"

#include <QAbstractSeries>
#include <QBuffer>
#include <QChart>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QPainter>
#include <QSvgGenerator>

namespace plimsoll {

void paintChart(QChart *chart, QPainter *painter, const QRectF &target, const QSize &sceneSize)
{
    for (QAbstractSeries *s : chart->series())
        s->setUseOpenGL(false);
    QGraphicsScene scene;
    QGraphicsScene *previous = chart->scene();
    if (previous)
        previous->removeItem(chart);
    scene.addItem(chart);
    chart->setGeometry(QRectF(QPointF(0, 0), QSizeF(sceneSize)));
    // The chart lays itself out on a posted event; a render before it would draw the old size.
    if (chart->layout())
        chart->layout()->activate();
    const QRectF source(QPointF(0, 0), QSizeF(sceneSize));
    scene.setSceneRect(source);
    scene.render(painter, target, source, Qt::KeepAspectRatio);
    scene.removeItem(chart); // the scene must not delete the caller's chart
    if (previous)
        previous->addItem(chart);
}

QByteArray chartSvg(QChart *chart, const QSize &size, const QString &title)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(title);
        svg.setDescription(QStringLiteral("Plimsoll chart"));
        QPainter painter(&svg);
        painter.setRenderHint(QPainter::Antialiasing);
        paintChart(chart, &painter, QRectF(QPointF(0, 0), QSizeF(size)), size);
    }
    QByteArray out = buffer.data();
    const qsizetype start = out.indexOf("<svg");
    return start >= 0 ? out.mid(start) : out;
}

} // namespace plimsoll
