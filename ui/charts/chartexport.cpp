#include "ui/charts/chartexport.h"

#include <QAbstractAxis>
#include <QAction>
#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QBuffer>
#include <QChart>
#include <QChartView>
#include <QClipboard>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QSaveFile>
#include <QStandardPaths>
#include <QSvgGenerator>
#include <QXYSeries>

namespace plimsoll {

namespace {

// A CSV field: quoted when it holds a separator, a quote or a line break.
QString field(const QString &text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString number(double v)
{
    return QString::number(v, 'g', 12);
}

const QAbstractAxis *axisOf(const QChart *chart, const QAbstractSeries *series, Qt::Orientation o)
{
    for (const QAbstractAxis *axis : const_cast<QAbstractSeries *>(series)->attachedAxes())
        if (axis->orientation() == o)
            return axis;
    const auto axes = chart->axes(o);
    return axes.isEmpty() ? nullptr : axes.first();
}

QString title(const QAbstractAxis *axis, const char *fallback)
{
    return axis && !axis->titleText().isEmpty() ? axis->titleText() : QString::fromLatin1(fallback);
}

QString seriesName(const QAbstractSeries *s, int index)
{
    return s->name().isEmpty() ? QStringLiteral("series %1").arg(index + 1) : s->name();
}

QString writeWhole(const QString &path, const QByteArray &bytes)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QObject::tr("cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
    if (file.write(bytes) != bytes.size() || !file.commit())
        return QObject::tr("cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
    return {};
}

void warn(QWidget *parent, const QString &error)
{
    if (!error.isEmpty())
        QMessageBox::warning(parent, QObject::tr("Export chart"), error);
}

QString ask(QChartView *view, const QString &name, const QString &extension, const QString &filter)
{
    QString dir = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (dir.isEmpty())
        dir = QDir::homePath();
    QString path = QFileDialog::getSaveFileName(view, QObject::tr("Export chart"),
                                                QDir(dir).filePath(name + QLatin1Char('.') + extension), filter);
    if (!path.isEmpty() && QFileInfo(path).suffix().isEmpty())
        path += QLatin1Char('.') + extension;
    return path;
}

} // namespace

QString chartDataCsv(const QChart *chart)
{
    QStringList rows;
    const auto series = chart->series();
    for (int i = 0; i < series.size(); ++i) {
        const QAbstractSeries *s = series[i];
        const QAbstractAxis *x = axisOf(chart, s, Qt::Horizontal), *y = axisOf(chart, s, Qt::Vertical);
        if (const auto *xy = qobject_cast<const QXYSeries *>(s)) {
            if (rows.isEmpty())
                rows << QStringLiteral("series,%1,%2").arg(field(title(x, "x")), field(title(y, "y")));
            const bool time = qobject_cast<const QDateTimeAxis *>(x) != nullptr;
            for (const QPointF &p : xy->points())
                rows << field(seriesName(s, i)) + QLatin1Char(',') +
                            (time ? QDateTime::fromMSecsSinceEpoch(qint64(p.x()), Qt::UTC).toString(Qt::ISODateWithMs)
                                  : number(p.x())) +
                            QLatin1Char(',') + number(p.y());
        } else if (const auto *bars = qobject_cast<const QAbstractBarSeries *>(s)) {
            const auto *categories = qobject_cast<const QBarCategoryAxis *>(
                axisOf(chart, s, bars->type() == QAbstractSeries::SeriesTypeHorizontalBar ? Qt::Vertical : Qt::Horizontal));
            const QAbstractAxis *value =
                axisOf(chart, s, bars->type() == QAbstractSeries::SeriesTypeHorizontalBar ? Qt::Horizontal : Qt::Vertical);
            if (rows.isEmpty())
                rows << QStringLiteral("series,%1,%2").arg(field(title(categories, "category")), field(title(value, "value")));
            for (const QBarSet *set : bars->barSets())
                for (int k = 0; k < set->count(); ++k)
                    rows << field(set->label()) + QLatin1Char(',') +
                                field(categories && k < categories->count() ? categories->at(k) : QString::number(k + 1)) +
                                QLatin1Char(',') + number(set->at(k));
        }
    }
    return rows.isEmpty() ? QString() : rows.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

QString saveChartPng(QChartView *view, const QString &path)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!view->grab().save(&buffer, "PNG"))
        return QObject::tr("cannot draw the chart as PNG");
    return writeWhole(path, bytes);
}

QString saveChartSvg(QChartView *view, const QString &path)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(view->size());
        svg.setViewBox(QRect(QPoint(0, 0), view->size()));
        svg.setTitle(view->chart() ? view->chart()->title() : QString());
        svg.setDescription(QStringLiteral("Plimsoll chart"));
        QPainter painter(&svg);
        painter.setRenderHint(QPainter::Antialiasing);
        view->render(&painter);
    }
    return writeWhole(path, bytes);
}

QString saveChartCsv(const QChart *chart, const QString &path)
{
    return writeWhole(path, chartDataCsv(chart).toUtf8());
}

void enableChartExport(QChartView *view, const QString &name)
{
    view->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(view, &QWidget::customContextMenuRequested, view, [view, name](const QPoint &at) {
        QMenu menu(view);
        const bool hasData = view->chart() && !chartDataCsv(view->chart()).isEmpty();
        menu.addAction(QObject::tr("Save as PNG…"), view, [view, name] {
            if (const QString path = ask(view, name, QStringLiteral("png"), QObject::tr("PNG image (*.png)")); !path.isEmpty())
                warn(view, saveChartPng(view, path));
        });
        menu.addAction(QObject::tr("Save as SVG…"), view, [view, name] {
            if (const QString path = ask(view, name, QStringLiteral("svg"), QObject::tr("SVG image (*.svg)")); !path.isEmpty())
                warn(view, saveChartSvg(view, path));
        });
        menu.addAction(QObject::tr("Copy image"), view,
                       [view] { QApplication::clipboard()->setImage(view->grab().toImage()); });
        menu.addSeparator();
        QAction *copyData = menu.addAction(QObject::tr("Copy data"), view, [view] {
            auto *mime = new QMimeData;
            const QString csv = chartDataCsv(view->chart());
            mime->setText(csv);
            mime->setData(QStringLiteral("text/csv"), csv.toUtf8());
            QApplication::clipboard()->setMimeData(mime);
        });
        QAction *saveData = menu.addAction(QObject::tr("Save data as CSV…"), view, [view, name] {
            if (const QString path = ask(view, name, QStringLiteral("csv"), QObject::tr("CSV (*.csv)")); !path.isEmpty())
                warn(view, saveChartCsv(view->chart(), path));
        });
        copyData->setEnabled(hasData);
        saveData->setEnabled(hasData);
        menu.exec(view->viewport()->mapToGlobal(at));
    });
}

} // namespace plimsoll
