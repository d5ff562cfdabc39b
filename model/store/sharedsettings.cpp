#include "model/store/sharedsettings.h"

#include "model/store/connection.h"
#include "model/store/savedsizing.h"

#include <QFile>
#include <QSettings>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <algorithm>

namespace plimsoll {

namespace {

using nlohmann::json;

std::vector<std::string> excludedFromBody(const std::string &family, const std::string &body)
{
    const json list = json::parse(body, nullptr, false);
    std::vector<std::string> out;
    if (list.is_array())
        for (const json &key : list)
            if (key.is_string() && !key.get<std::string>().empty())
                out.push_back(key.get<std::string>());
    if (!list.is_array() || out.size() != list.size())
        throw StoreError("the contract choice of family '" + family +
                         "' is not a list of keys (`plimsoll contract --family '" + family +
                         "' --clear` forgets it)");
    return out;
}

std::string bodyOf(const std::vector<std::string> &excluded)
{
    return json(excluded).dump();
}

// "<store>.contracts.ini" as Plimsoll wrote it before version 7: group "families", one key a
// family (percent-encoded, QSettings keys cannot hold '/'), its value the keys left out.
std::vector<Store::SharedSetting> contractSettingsOfFile(const std::string &file)
{
    QSettings ini(QString::fromStdString(file), QSettings::IniFormat);
    if (ini.status() != QSettings::NoError)
        throw StoreError("cannot read the contract choices in " + file +
                         " (move it aside to open the store without them)");
    std::vector<Store::SharedSetting> out;
    ini.beginGroup(QStringLiteral("families"));
    for (const QString &key : ini.childKeys()) {
        std::vector<std::string> excluded;
        for (const QString &k : ini.value(key).toStringList())
            if (!k.isEmpty())
                excluded.push_back(k.toStdString());
        std::sort(excluded.begin(), excluded.end());
        excluded.erase(std::unique(excluded.begin(), excluded.end()), excluded.end());
        if (!excluded.empty())
            out.push_back({QByteArray::fromPercentEncoding(key.toUtf8()).toStdString(), bodyOf(excluded)});
    }
    return out;
}

void insertSettings(sql::Connection &db, const char *kind, const std::vector<Store::SharedSetting> &settings)
{
    sql::Statement put(db, "INSERT INTO shared_settings (kind, name, body) VALUES (?1, ?2, ?3) "
                           "ON CONFLICT (kind, name) DO UPDATE SET body = excluded.body");
    for (const Store::SharedSetting &s : settings) {
        put.reset();
        put.bindText(1, kind).bindText(2, s.name).bindText(3, s.body);
        put.run();
    }
}

} // namespace

ContractPolicies loadContractPolicies(const Store &store)
{
    std::vector<ContractPolicy> policies;
    for (const Store::SharedSetting &row : store.sharedSettings(kContractPolicyKind))
        policies.push_back({row.name, excludedFromBody(row.name, row.body)});
    return ContractPolicies(std::move(policies));
}

void saveContractPolicy(Store &store, const std::string &family, std::vector<std::string> excluded)
{
    std::erase(excluded, std::string());
    std::sort(excluded.begin(), excluded.end());
    excluded.erase(std::unique(excluded.begin(), excluded.end()), excluded.end());
    if (excluded.empty())
        store.removeSharedSetting(kContractPolicyKind, family);
    else
        store.putSharedSetting(kContractPolicyKind, family, bodyOf(excluded), true);
}

std::vector<std::string> moveSettingsFilesIn(sql::Connection &db, const std::string &path)
{
    std::vector<std::string> read;
    if (const std::string ini = path + ".contracts.ini"; QFile::exists(QString::fromStdString(ini))) {
        insertSettings(db, kContractPolicyKind, contractSettingsOfFile(ini));
        read.push_back(ini);
    }
    if (const std::string sizings = path + ".sizings.json"; QFile::exists(QString::fromStdString(sizings))) {
        try {
            insertSettings(db, kSavedSizingKind, SavedSizings::settingsOfFile(sizings));
        } catch (const SavedSizingError &e) {
            throw StoreError(std::string(e.what()) + "; the store moves that file into itself when it is "
                                                     "first opened: fix the file or move it aside");
        }
        read.push_back(sizings);
    }
    return read;
}

void markSettingsFilesMoved(const std::vector<std::string> &files)
{
    for (const std::string &file : files) {
        const QString from = QString::fromStdString(file);
        const QString to = from + QStringLiteral(".migrated");
        QFile::remove(to);
        QFile::rename(from, to);
    }
}

} // namespace plimsoll
