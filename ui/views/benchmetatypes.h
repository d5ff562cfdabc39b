#pragma once
// Bench values travel by queued signal from the worker thread; declared once, before any
// header's signals use them.
#include "runner/benchresult.h"

#include <QMetaType>

Q_DECLARE_METATYPE(plimsoll::BenchSnapshot)
Q_DECLARE_METATYPE(plimsoll::BenchResult)
