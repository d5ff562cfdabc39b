#pragma once
// Draws a QChart without a window: into any QPainter (a PDF page stays vector) or into SVG
// text. The chart is laid out at `sceneSize` (what the window would show) and scaled into the
// target, so fonts and markers keep the proportions seen on screen.
//
// Threading: GUI thread only (a QChart is a graphics item). OpenGL series are switched off
// first: they are missing from any render that is not a live OpenGL view.

#include <QByteArray>
#include <QRectF>
#include <QSize>

class QChart;
class QPainter;

namespace plimsoll {

void paintChart(QChart *chart, QPainter *painter, const QRectF &target, const QSize &sceneSize);

// An <svg> element (no XML prolog, no DOCTYPE) ready to inline into HTML. Deterministic for the
// same chart: no ids beyond QSvgGenerator's own counters, fixed title and description.
QByteArray chartSvg(QChart *chart, const QSize &size, const QString &title);

} // namespace plimsoll
