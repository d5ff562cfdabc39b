# Seeds that no file in tests/data or the corpus holds as such, written into the build tree
# at configure time (never into the source tree): ${seedRoot}/<target>/.

function(plimsoll_write_seeds dir)
  file(MAKE_DIRECTORY ${dir})
  set(i 0)
  foreach(text IN LISTS ARGN)
    file(WRITE ${dir}/seed-${i} "${text}")
    math(EXPR i "${i} + 1")
  endforeach()
endfunction()

# hdrcodec: the base64 histograms of the interval logs, behind the mode byte '1' (see
# hdrcodecfuzz.cpp), and a few raw and plain-encoding starts.
set(hdrSeeds "0" "0HISTFAAAA")
file(GLOB hlogs ${corpus}/hdrhistogram/*.hlog ${testData}/hdrhistogram/*.hlog)
foreach(hlog ${hlogs})
  file(STRINGS ${hlog} lines LIMIT_COUNT 40)
  foreach(line ${lines})
    if(line MATCHES ",(HIST[A-Za-z0-9+/=]+)$")
      list(APPEND hdrSeeds "1${CMAKE_MATCH_1}")
    endif()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES hdrSeeds)
list(SUBLIST hdrSeeds 0 40 hdrSeeds)
plimsoll_write_seeds(${seedRoot}/hdrcodec ${hdrSeeds})

# clientproperties: what users bring to --command-config (TLS, SASL, Java-only settings).
plimsoll_write_seeds(${seedRoot}/clientproperties
  "security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\nsasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required \\\n    username=\"bench\" password=\"s3cr3t\"\nssl.truststore.location=/etc/kafka/ca.pem\nssl.truststore.type=PEM\n"
  "bootstrap.servers=localhost:9092\nacks=all\nlinger.ms=5\nbatch.size=16384\ncompression.type=lz4\n"
  "security.protocol:SSL\nssl.keystore.location /etc/kafka/client.jks\nssl.keystore.password=changeit\nssl.key.password=changeit\nssl.truststore.type=JKS\n"
  "# comment\n! bang comment\nkey\\ with\\ spaces=value\\u0041\\t\\n\nssl.endpoint.identification.algorithm=\n"
  "sasl.mechanism=PLAIN\nsecurity.protocol=SASL_PLAINTEXT\nsasl.username=u\nsasl.password=p\nclient.id=\\\n  continued\n"
  "ssl.ca.location=/tmp/ca.pem\nssl.certificate.location=/tmp/c.pem\nssl.key.location=/tmp/k.pem\nssl.keystore.type=PEM\nssl.keystore.key=-----BEGIN PRIVATE KEY-----\\nMII\\n-----END PRIVATE KEY-----\n"
  "interceptor.classes=com.example.Interceptor\nsasl.login.callback.handler.class=x.Y\nsasl.oauthbearer.config=principal=admin\n")

# units: sizes and durations as users type them.
plimsoll_write_seeds(${seedRoot}/units
  "1KB" "1mb" "1.5GB" "512" "0" "16 kb" "PT30S" "P1DT2H3M4.5S" "PT0.5S" "250ms" "10s" "2m"
  "1h" "3d" "500us" "100ns" "60000" "unlimited" "producer" "roundtrip" "ramp" "-1s" "1e3ms")

# prometheus: the shapes exporters write that the corpus file may not show.
plimsoll_write_seeds(${seedRoot}/prometheus
  "# HELP x help\n# TYPE x counter\nx{a=\"1\",b=\"\\\"q\\\"\\n\"} 1.5 1700000000000\n# EOF\n"
  "kafka_server_BrokerTopicMetrics_MessagesInPerSec{topic=\"t\",} 12\n2026-08-11 03:00:05\nkafka_server_BrokerTopicMetrics_MessagesInPerSec{topic=\"t\",} 20\n"
  "# TYPE h histogram\nh_bucket{le=\"0.1\"} 1\nh_bucket{le=\"+Inf\"} 3\nh_sum 0.4\nh_count 3\n# TYPE s summary\ns{quantile=\"0.99\"} NaN\ns_sum 1\ns_count 2\n"
  "# scrape 2026-05-01T10:00:00Z\nup 1\r\nredis_memory_used_bytes -Inf\n")
