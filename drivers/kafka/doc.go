// Package kafka is gobench's "kafka" driver, on github.com/twmb/franz-go
// (v1.22) alone: the YCSB operations, the produce workload
// (kafka-producer-perf-test.sh) and the consume workload
// (kafka-consumer-perf-test.sh).
//
// # Producing as Java's producer does
//
// One idempotent producer client per DB (all workers share it, as the Java
// tool's threads share one KafkaProducer): acks=all, 5 requests in flight
// per broker with ordering kept by the idempotent sequence numbers, a record
// retried (on a leader change, a broker restart, a frozen broker's timed-out
// request) until kafka.deliverytimeout (120 s) has passed since it was
// produced; only then, or on a non-retriable error, is it failed, and the
// workload counts it. As in Java (KIP-91), that bound holds for a record
// whose request is in flight to a broker that stopped answering too: by
// default franz-go would wait for that request's outcome however long a
// frozen broker takes, so the producer allows the cancellation
// (AllowIdempotentProduceCancellation) and bumps its epoch after, as Java's
// does for an unresolved sequence (KIP-360). Batches are capped at kafka.batchsize per partition,
// raised per topic to fit its first record (Java sends a record larger than
// batch.size alone); a later record larger than its topic's cap goes
// through a second producer client capped at kafka.maxmessagebytes. Keyed
// records go to partition FNV-1a(key) mod partitions (so topics written by
// earlier gobench versions stay readable); records without a key use
// franz-go's sticky uniform-bytes partitioner (Java's since 3.3), switching
// partition after kafka.batchsize bytes.
//
// # Java client properties
//
// The Kafka tools' property files and --producer-props / --command-property
// are mapped onto these keys by workload/kafkaperf (JavaKey); a property not
// in this table is named, without its value, in one warning. The Java
// tools force byte-array (de)serializers; so does gobench, silently.
//
//	Java property                          franz-go option                                  gobench key
//	bootstrap.servers                      SeedBrokers                                      kafka.brokers
//	client.id                              ClientID                                         kafka.clientid
//	request.timeout.ms                     ProduceRequestTimeout, RequestTimeoutOverhead    kafka.timeout
//	retry.backoff.ms                       RetryBackoffFn (first step)                      kafka.retrybackoff
//	retry.backoff.max.ms                   RetryBackoffFn (ceiling)                         kafka.retrybackoffmax
//	metadata.max.age.ms                    MetadataMaxAge                                   kafka.metadatamaxage
//	connections.max.idle.ms                ConnIdleTimeout                                  kafka.connidle
//	acks                                   RequiredAcks                                     kafka.acks
//	enable.idempotence                     DisableIdempotentWrite (when false)              kafka.idempotence
//	max.in.flight.requests.per.connection  MaxProduceRequestsInflightPerBroker              kafka.inflight
//	retries                                RecordRetries                                    kafka.retries
//	delivery.timeout.ms                    RecordDeliveryTimeout (+ AllowIdempotentProduceCancellation) kafka.deliverytimeout
//	compression.type                       ProducerBatchCompression                         kafka.compression
//	compression.gzip.level                 GzipCompression().WithLevel                      kafka.gziplevel
//	compression.lz4.level                  Lz4Compression().WithLevel                       kafka.lz4level
//	compression.zstd.level                 ZstdCompression().WithLevel                      kafka.zstdlevel
//	batch.size                             ProducerBatchMaxBytesFn, UniformBytesPartitioner kafka.batchsize
//	linger.ms                              ProducerLinger                                   kafka.linger
//	max.request.size                       BrokerMaxWriteBytes, ProducerBatchMaxBytesFn     kafka.maxmessagebytes
//	buffer.memory                          (the produce workload's in-flight bound)         produce.buffermemory
//	group.id                               ConsumerGroup                                    kafka.group
//	group.instance.id                      InstanceID                                       kafka.groupinstanceid
//	group.protocol                         GroupProtocol                                    kafka.groupprotocol
//	partition.assignment.strategy          Balancers                                        kafka.assignors
//	auto.offset.reset                      ConsumeResetOffset                               kafka.offsetreset
//	max.partition.fetch.bytes              FetchMaxPartitionBytes                           kafka.fetchsize
//	fetch.max.bytes                        FetchMaxBytes                                    kafka.fetchmaxbytes
//	fetch.min.bytes                        FetchMinBytes                                    kafka.fetchminbytes
//	fetch.max.wait.ms                      FetchMaxWait                                     kafka.fetchwait
//	enable.auto.commit                     DisableAutoCommit (when false)                   kafka.autocommit
//	auto.commit.interval.ms                AutoCommitInterval                               kafka.autocommitinterval
//	session.timeout.ms                     SessionTimeout                                   kafka.sessiontimeout
//	heartbeat.interval.ms                  HeartbeatInterval                                kafka.heartbeat
//	max.poll.interval.ms                   RebalanceTimeout                                 kafka.rebalancetimeout
//	isolation.level                        FetchIsolationLevel                              kafka.isolationlevel
//	client.rack                            Rack                                             kafka.rack
//	check.crcs                             DisableFetchCRCValidation (when false)           kafka.checkcrcs
//	max.poll.records                       PollRecords' limit                               kafka.consumerqueue
//	security.protocol                      DialTLSConfig, SASL                              kafka.security.protocol
//	sasl.mechanism                         SASL (sasl/plain, scram, kerberos, oauth)        kafka.sasl.mechanism
//	sasl.jaas.config                       SASL credentials (parsed as Java does)           kafka.sasl.jaas.config
//	sasl.kerberos.service.name             kerberos.Auth.Service                            kafka.sasl.kerberos.service.name
//	java.security.krb5.conf                gokrb5 config.Load                               kafka.krb5.conf
//	ssl.truststore.location                DialTLSConfig RootCAs                            kafka.ssl.truststore.location
//	ssl.truststore.password                (JKS/PKCS12 integrity)                           kafka.ssl.truststore.password
//	ssl.truststore.type                    (JKS, PKCS12, PEM)                               kafka.ssl.truststore.type
//	ssl.truststore.certificates            DialTLSConfig RootCAs                            kafka.ssl.truststore.certificates
//	ssl.keystore.location                  DialTLSConfig Certificates                       kafka.ssl.keystore.location
//	ssl.keystore.password                  (JKS/PKCS12 integrity)                           kafka.ssl.keystore.password
//	ssl.keystore.type                      (JKS, PKCS12, PEM)                               kafka.ssl.keystore.type
//	ssl.keystore.key                       DialTLSConfig Certificates                       kafka.ssl.keystore.key
//	ssl.keystore.certificate.chain         DialTLSConfig Certificates                       kafka.ssl.keystore.certificate.chain
//	ssl.key.password                       (private key decryption)                         kafka.ssl.key.password
//	ssl.endpoint.identification.algorithm  tls.Config host name check                       kafka.ssl.endpoint.identification.algorithm
//
// Not honoured (named in the warning): the other sasl.* and ssl.* keys
// (sasl.login.*, sasl.oauthbearer.*, ssl.protocol, ssl.enabled.protocols,
// ssl.cipher.suites, ...), partitioner.class,
// interceptor.classes, transactional.id and transaction.timeout.ms,
// reconnect.backoff.*, send.buffer.bytes, receive.buffer.bytes,
// socket.connection.setup.timeout.*, max.block.ms, metric.reporters and the
// other metrics.*, and anything else. With idempotence franz-go keeps
// exactly 5 requests in flight, so kafka.inflight other than 5 needs
// kafka.idempotence=false (Java allows 1-5); acks 0 or 1 turn idempotence
// off unless it is set (then they are an error), as in Java.
//
// # Security
//
// security.protocol PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL
// (security.go): TLS from Java's key and trust stores (JKS, PKCS12, PEM,
// tlsstore.go; encrypted PKCS#8 keys in pkcs8.go) through
// kgo.DialTLSConfig, with the host name checked unless
// ssl.endpoint.identification.algorithm is empty; SASL PLAIN, SCRAM-SHA-256/512,
// GSSAPI and OAUTHBEARER through franz-go's sasl packages, the credentials
// read from sasl.jaas.config as Java's clients parse it (jaas.go). GSSAPI
// logs in with gokrb5 from Krb5LoginModule's keytab or ticket cache
// (KRB5CCNAME), krb5.conf from kafka.krb5.conf or KRB5_CONFIG; one
// Kerberos client per DB serves every franz-go client. Stores, keytabs and
// ticket caches are read when the properties are decoded (a bad one is a
// configuration error naming its property); [DB.Prepare] then logs in
// (Kerberos login, a service ticket of the first broker, one request
// through TLS and SASL), so a refused login stops the run before it starts
// with an [AuthError] naming the principal (login.go). Authorization
// failures (TOPIC_, GROUP_, CLUSTER_, TRANSACTIONAL_ID_ and
// DELEGATION_TOKEN_AUTHORIZATION_FAILED) are FORBIDDEN. No secret is kept
// in an exported field: [Security] prints as protocol, mechanism and user.
//
// # How the YCSB operations map onto a log
//
//   - Table = topic, created before the run when missing
//     (kafka.createtopic) with kafka.partitions partitions, replication
//     kafka.replication and max.message.bytes = kafka.maxmessagebytes.
//   - Insert produces one record keyed by the YCSB key and waits for its
//     acknowledgement; the value is the record's fields, compactly encoded:
//     a format byte 1, then per field uvarint(index), uvarint(length),
//     bytes. Update reads the key's newest record, lays the new fields over
//     it and produces the merged record; updates of one key are serialised
//     inside a process (two processes updating one key race, last writer
//     wins). Delete produces a tombstone.
//   - The index: every key's newest (partition, offset), in a B-tree, so a
//     lookup costs O(log n) and a scan of N keys O(log n + N). It is built
//     by reading the topic from each partition's start to the high watermark
//     it had when the build began, in DB.Prepare, which the runner calls
//     before any worker opens a connection and before the run's clock
//     starts: the read is in no operation's latency and not in the run time,
//     and is reported on a line of its own (drivers.Noter: records read,
//     live keys, time). The consumer that built it then keeps tailing the
//     topic, applying every record any client appends; this process's own
//     acknowledgements are applied at once. Per partition the index knows
//     the offset below which it holds every record.
//   - Reads see the newest value of any client (kafka.readlatest): a read
//     learns the partition's high watermark h from the broker (one fetch)
//     and waits until the index holds every record below h. Since a produce
//     is acknowledged only once it is below the high watermark, every write
//     acknowledged before the read began is then in the index: a key
//     updated by client 1 is read with its new value by client 2. The cost:
//     one request per read or scan, plus the tail's lag (about one fetch
//     round trip) when another client wrote just before; and every client
//     process consumes the whole write stream of the topic.
//   - Read, Update's read and Scan take values, with kafka.reads=state (the
//     default), from the index itself: the tail keeps each key's newest
//     value, as a Kafka Streams state store materialises a topic. A scan is
//     then one request for the high watermarks of all partitions and
//     O(log n + N) in memory. Memory: the whole table (about 1.1 GB for 1M
//     YCSB records of 1 KB). With kafka.reads=log the index keeps only
//     offsets and each record is fetched from the log at its offset through
//     kafka.readclients clients (the broker serves one request per
//     connection at a time): random reads from the log, one request per
//     record, the fetch's answer carrying the high watermark; a scan sends
//     one request per round, a round holding one key of each partition, up
//     to 8 rounds in flight; its throughput is bound by the broker's
//     requests per second (on the testenv, workload E on 1M records: ~1.4x
//     the previous driver with state ~48x; see bench/kafka-ycsb.sh).
//
// # Consuming
//
// One franz-go group member per worker, with the consumer properties of the
// table; it commits polled offsets every kafka.autocommitinterval and at
// close. Rebalance time is measured as Kafka's ConsumerPerformance measures
// it: from subscribing (the first Consume), or from a revocation that left
// the member without partitions, until the assignment callback of a member
// that held none. --print-metrics reports the protocol's own share
// (consumer-coordinator-metrics join-time and sync-time) beside it.
//
// # Metrics
//
// franz-go's hooks feed ProducerMetrics and ConsumerMetrics (request
// latency, batch sizes and records, compression, buffered records, bytes,
// connections, throttling); retries, which the hooks do not report, are
// counted from franz-go's log messages (batch-retry-total,
// request-retry-total). Kafka's names are used where the meaning is the
// same; averages are over the whole run.
//
// Hot path: the driver's own code (encoding, index lookups and scans,
// partitioning, the produce bookkeeping) allocates nothing per operation
// once warm (a new key's string and value copy excepted); franz-go
// allocates per request.
//
// Imports: drivers, props, franz-go (kgo, kmsg, kerr, sasl/plain, scram,
// oauth, kerberos), gokrb5 (client, config, credentials, keytab),
// google/btree, pavlo-v-chernykh/keystore-go (JKS), sslmate go-pkcs12.
//
// Example (gobench CLI):
//
//	testenv/up.sh kafka
//	gobench load -db kafka -P workloads/workloada -p kafka.brokers=127.0.0.1:9092
//	gobench run  -db kafka -P workloads/workloada
package kafka
