#pragma once
// Tuning-contract choices kept in the store (Store::sharedSettings, kind "contract-policy": one
// setting a scenario family, its body the JSON list of the keys left out), so that a team's
// windows and jobs judge one series alike. And the one-time move of the files a SQLite store
// kept its shared settings in before schema version 7 ("<store>.contracts.ini", QSettings INI;
// "<store>.sizings.json").

#include "model/core/tuningcontract.h"
#include "model/store/store.h"

#include <string>
#include <vector>

namespace plimsoll {

namespace sql {
class Connection;
}

// Every family's choice. Throws StoreError when the store cannot be read or a body is not a
// list of keys (naming the family).
ContractPolicies loadContractPolicies(const Store &store);
// Replaces the choice of `family` (no exclusions: forgets it) in one transaction, leaving the
// other families' as they are in the store at that moment. Throws StoreError (a read-only store
// says so).
void saveContractPolicy(Store &store, const std::string &family, std::vector<std::string> excluded);

// The migration to version 7 of the SQLite store at `path`: writes the settings of the files
// beside it into shared_settings through `db` (inside the migration's transaction) and returns
// the files read. Throws StoreError naming a file it cannot read (the migration then leaves the
// store as it was).
std::vector<std::string> moveSettingsFilesIn(sql::Connection &db, const std::string &path);
// After the migration's commit: renames each file to "<file>.migrated", kept for the user but
// never read again. A file that cannot be renamed is left (the store no longer reads it).
void markSettingsFilesMoved(const std::vector<std::string> &files);

} // namespace plimsoll
