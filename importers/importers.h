#pragma once
// Every format Plimsoll reads, one importer each: ImporterRegistry lists them in detection
// order, and a caller that knows the format (a test, `--format`) takes it here. Each is a
// constant built on first use; what it reads is described at the top of its source file.

#include "importers/importer.h"

#include <optional>
#include <string>
#include <string_view>

namespace plimsoll {

const Importer &trendRecordsImporter();        // plimsoll/trendrecordsimporter.cpp
const Importer &benchResultImporter();         // plimsoll/benchresultimporter.cpp
const Importer &korvetResultImporter();        // korvet/korvetresultimporter.cpp
const Importer &korvetDistImporter();          // korvet/korvetdistimporter.cpp
const Importer &ombImporter();                 // omb/ombimporter.cpp
const Importer &kafkaProducerPerfImporter();   // kafka/kafkaproducerperfimporter.cpp
const Importer &kafkaConsumerPerfImporter();   // kafka/kafkaconsumerperfimporter.cpp
const Importer &rdkafkaPerformanceImporter();  // kafka/rdkafkaperformanceimporter.cpp
const Importer &hlogImporter();                // hdr/hlogimporter.cpp
const Importer &hgrmImporter();                // hdr/hgrmimporter.cpp
const Importer &redisBenchmarkImporter();      // redis/redisbenchmarkimporter.cpp
const Importer &memtierImporter();             // redis/memtierimporter.cpp
const Importer &prometheusImporter();          // prometheus/prometheusimporter.cpp

// The bytes `plimsoll bench` fingerprints when it stores a result (the document as compact
// JSON), for a bench result file: so that the file a stored bench wrote (the same document,
// indented) is the same source, "unchanged" when imported. nullopt when `text` is no readable
// JSON document; the import then refuses it with the reason.
std::optional<std::string> benchResultIdentity(std::string_view text);

} // namespace plimsoll
