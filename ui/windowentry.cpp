#include "ui/windowentry.h"

#include "ui/mainwindow.h"
#include "ui/sortarrowstyle.h"

#include <QApplication>
#include <QFileInfo>

namespace plimsoll {

int runWindow(QApplication &app, const QString &storePath, bool seedSamplesWhenNew)
{
    // Whether the store is new must be known before any worker opens (and so creates) it.
    const bool isNew = !QFileInfo::exists(storePath);
    QApplication::setStyle(new SortArrowStyle); // the platform's style, owned by the application
    MainWindow window(storePath);
    window.show();
    window.start(seedSamplesWhenNew && isNew);
    return app.exec();
}

} // namespace plimsoll
