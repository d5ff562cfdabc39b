#include "model/store/storecopy.h"

namespace plimsoll {

namespace {

void copySettings(const Store &from, Store &to, StoreCopyReport &report)
{
    for (const char *kind : {kContractPolicyKind, kSavedSizingKind}) {
        for (const Store::SharedSetting &s : from.sharedSettings(kind)) {
            if (to.putSharedSetting(kind, s.name, s.body, false))
                ++report.settingsCopied;
            else if (to.sharedSetting(kind, s.name) != s.body)
                report.settingsKept.push_back(std::string(kind) + " '" + s.name + "'");
        }
    }
}

} // namespace

StoreCopyReport copyStore(const Store &from, Store &to,
                          const std::function<void(int64_t done, int64_t total, int64_t runs)> &progress)
{
    if (from.path() == to.path())
        throw StoreError("cannot copy " + from.path() + " into itself");
    StoreCopyReport report;
    const std::vector<Store::StoredSource> sources = from.sources();
    int64_t done = 0;
    for (const Store::StoredSource &source : sources) {
        std::unique_ptr<SourceWriter> writer = to.beginSource(source.record);
        if (writer->unchanged()) {
            ++report.sourcesAlreadyThere;
        } else {
            try {
                for (const std::string &key : source.runKeys) {
                    auto detail = from.run(key);
                    if (!detail)
                        throw StoreError("run '" + key + "' left " + from.path() + " during the copy");
                    writer->put(std::move(detail->record));
                }
                writer->settle();
            } catch (const StoreError &e) {
                throw StoreError("cannot copy the source " + source.record.uri + ": " + e.what());
            }
            if (source.runsRemoved > 0)
                writer->setRunsRemoved(source.runsRemoved);
            report.runsCopied += int64_t(source.runKeys.size());
            ++report.sourcesCopied;
        }
        writer->commit();
        if (progress)
            progress(++done, int64_t(sources.size()), report.runsCopied);
    }
    copySettings(from, to, report);
    return report;
}

} // namespace plimsoll
