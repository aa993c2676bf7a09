package kafkaperf

import "github.com/gobench/gobench/props"

// ProduceKeys lists the produce workload's properties.
func ProduceKeys() []props.Key {
	return []props.Key{
		{Name: KeyProduceTopic, Default: "(table)", Usage: "topic to produce to"},
		{Name: KeyProduceRecordSize, Default: "100", Usage: "payload bytes per record (--record-size)"},
		{Name: KeyProducePayloadFile, Usage: "UTF-8 file of payloads; each record picks one at random (--payload-file)"},
		{Name: KeyProducePayloadDelim, Default: `\n`, Usage: "regular expression between payloads (--payload-delimiter)"},
		{Name: KeyProduceThroughput, Default: "-1", Usage: "records/s over all workers, -1 = unthrottled (--throughput)"},
		{Name: KeyProduceBufferMemory, Default: "32MB", Usage: "payload bytes a worker may have in flight; past it, it waits for acknowledgements (buffer.memory)"},
		{Name: KeyProduceMonotonic, Default: "false", Usage: "payload = the record's index in decimal (--payload-monotonic)"},
	}
}

// ConsumeKeys lists the consume workload's properties.
func ConsumeKeys() []props.Key {
	return []props.Key{
		{Name: KeyConsumeTopic, Default: "(table)", Usage: "topic to consume"},
		{Name: KeyConsumeTimeout, Default: "10000", Usage: "ms without a record before a worker gives up (--timeout)"},
	}
}

// javaKeys maps Kafka's Java client properties (as producer.config,
// consumer.config, --producer-props and --command-property give them) to
// gobench's keys: every property the kafka driver (on franz-go) honours.
// drivers/kafka's package doc lists the same table with the franz-go
// option behind each key; a test in cmd/gobench keeps the two equal.
var javaKeys = map[string]string{
	// both
	"bootstrap.servers":       "kafka.brokers",
	"client.id":               "kafka.clientid",
	"request.timeout.ms":      "kafka.timeout",
	"retry.backoff.ms":        "kafka.retrybackoff",
	"retry.backoff.max.ms":    "kafka.retrybackoffmax",
	"metadata.max.age.ms":     "kafka.metadatamaxage",
	"connections.max.idle.ms": "kafka.connidle",
	// producer
	"acks":                                  "kafka.acks",
	"enable.idempotence":                    "kafka.idempotence",
	"max.in.flight.requests.per.connection": "kafka.inflight",
	"retries":                               "kafka.retries",
	"delivery.timeout.ms":                   "kafka.deliverytimeout",
	"compression.type":                      "kafka.compression",
	"compression.gzip.level":                "kafka.gziplevel",
	"compression.lz4.level":                 "kafka.lz4level",
	"compression.zstd.level":                "kafka.zstdlevel",
	"batch.size":                            "kafka.batchsize",
	"linger.ms":                             "kafka.linger",
	"max.request.size":                      "kafka.maxmessagebytes",
	"buffer.memory":                         KeyProduceBufferMemory,
	// consumer
	"group.id":                      "kafka.group",
	"group.instance.id":             "kafka.groupinstanceid",
	"group.protocol":                "kafka.groupprotocol",
	"partition.assignment.strategy": "kafka.assignors",
	"auto.offset.reset":             "kafka.offsetreset",
	"max.partition.fetch.bytes":     "kafka.fetchsize",
	"fetch.max.bytes":               "kafka.fetchmaxbytes",
	"fetch.min.bytes":               "kafka.fetchminbytes",
	"fetch.max.wait.ms":             "kafka.fetchwait",
	"enable.auto.commit":            "kafka.autocommit",
	"auto.commit.interval.ms":       "kafka.autocommitinterval",
	"session.timeout.ms":            "kafka.sessiontimeout",
	"heartbeat.interval.ms":         "kafka.heartbeat",
	"max.poll.interval.ms":          "kafka.rebalancetimeout",
	"isolation.level":               "kafka.isolationlevel",
	"client.rack":                   "kafka.rack",
	"check.crcs":                    "kafka.checkcrcs",
	"max.poll.records":              "kafka.consumerqueue",
	// security (drivers/kafka security.go; kafka.<Java name>)
	"security.protocol":                     "kafka.security.protocol",
	"sasl.mechanism":                        "kafka.sasl.mechanism",
	"sasl.jaas.config":                      "kafka.sasl.jaas.config",
	"sasl.kerberos.service.name":            "kafka.sasl.kerberos.service.name",
	"java.security.krb5.conf":               "kafka.krb5.conf",
	"ssl.truststore.location":               "kafka.ssl.truststore.location",
	"ssl.truststore.password":               "kafka.ssl.truststore.password",
	"ssl.truststore.type":                   "kafka.ssl.truststore.type",
	"ssl.truststore.certificates":           "kafka.ssl.truststore.certificates",
	"ssl.keystore.location":                 "kafka.ssl.keystore.location",
	"ssl.keystore.password":                 "kafka.ssl.keystore.password",
	"ssl.keystore.type":                     "kafka.ssl.keystore.type",
	"ssl.keystore.key":                      "kafka.ssl.keystore.key",
	"ssl.keystore.certificate.chain":        "kafka.ssl.keystore.certificate.chain",
	"ssl.key.password":                      "kafka.ssl.key.password",
	"ssl.endpoint.identification.algorithm": "kafka.ssl.endpoint.identification.algorithm",
}

// javaAsIs are Java properties the perf tools override themselves (they
// always send and receive raw bytes), so gobench, which does the same,
// accepts them without a warning.
var javaAsIs = map[string]bool{
	"key.serializer": true, "value.serializer": true, "key.deserializer": true, "value.deserializer": true,
}

// JavaKeys returns the Java client property → gobench key table.
func JavaKeys() map[string]string {
	m := make(map[string]string, len(javaKeys))
	for k, v := range javaKeys {
		m[k] = v
	}
	return m
}

// JavaKey returns gobench's key for a Kafka client property: its mapping,
// the key itself when it is already one of gobench's (kafka.*, produce.*,
// consume.*), or "" with ok true for a property the Java tools override
// too (the serializers). ok is false for a Java property gobench cannot
// honour.
func JavaKey(key string) (string, bool) {
	if k, ok := javaKeys[key]; ok {
		return k, true
	}
	if javaAsIs[key] {
		return "", true
	}
	for _, p := range []string{"kafka.", "produce.", "consume."} {
		if len(key) > len(p) && key[:len(p)] == p {
			return key, true
		}
	}
	return key, false
}
