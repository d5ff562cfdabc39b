#pragma once
// The window front end, as app/main.cpp starts it.

#include <QString>

class QApplication;

namespace plimsoll {

// Opens the main window on the store at `storePath` and runs the event loop; returns its exit
// code. When `seedSamplesWhenNew` is set and no file existed at `storePath`, the bundled
// sample runs are installed (in the background) before the views first load.
int runWindow(QApplication &app, const QString &storePath, bool seedSamplesWhenNew);

} // namespace plimsoll
