#pragma once
// The Sizing view's "Save sizing…" and "Saved sizings…" buttons, wired to the view through its
// public members only (inputs, setInputs, evidenceSelection, setEvidenceSelection, storePath),
// so the view's layout places the row wherever it likes:
//     layout->addWidget(makeSavedSizingButtons(this));
//
// Save sizing… asks for a name (a rate-based suggestion), asks before replacing a sizing saved
// under it, and keeps the view's inputs and run selection in the store (model/store/savedsizing.h;
// read and written off the UI thread). Saved sizings… opens the SavedSizingsDialog; its Load puts the chosen
// sizing's inputs and runs back into the view. Outcomes are said in a label in the row, never
// in a modal error box.

#include "model/store/savedsizing.h"

#include <QString>

class QWidget;

namespace plimsoll {

class SizingView;

QWidget *makeSavedSizingButtons(SizingView *view);

// What "Save sizing…" saves for `name`: the view's inputs and run selection, now.
SavedSizing savedSizingOf(const SizingView &view, const std::string &name);

// Puts `saved` into the view (its inputs and, when it differs, its run selection: the view
// refits). Returns a note for the user when something of it could not be taken over, else "".
QString loadSavedSizing(SizingView &view, const SavedSizing &saved);

} // namespace plimsoll
