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
		{Name: KeyProduceBufferMemory, Default: "32MB", Usage: "payload bytes a worker may have in flight (buffer.memory)"},
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

// javaKeys maps Kafka client properties (as producer.config and
// --producer-props give them) to gobench's keys.
var javaKeys = map[string]string{
	"bootstrap.servers": "kafka.brokers", "acks": "kafka.acks", "compression.type": "kafka.compression",
	"batch.size": "kafka.batchsize", "linger.ms": "kafka.linger", "buffer.memory": KeyProduceBufferMemory,
	"max.request.size": "kafka.maxmessagebytes", "request.timeout.ms": "kafka.timeout", "group.id": "kafka.group",
	"auto.offset.reset": "kafka.offsetreset", "max.partition.fetch.bytes": "kafka.fetchsize", "fetch.max.wait.ms": "kafka.fetchwait",
}

// JavaKey returns gobench's key for a Kafka client property: its mapping,
// or the key itself when it is already one of gobench's (kafka.*,
// produce.*, consume.*). ok is false for a Java property gobench has no
// equivalent of.
func JavaKey(key string) (string, bool) {
	if k, ok := javaKeys[key]; ok {
		return k, true
	}
	for _, p := range []string{"kafka.", "produce.", "consume."} {
		if len(key) > len(p) && key[:len(p)] == p {
			return key, true
		}
	}
	return key, false
}
