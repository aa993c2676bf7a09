// Package driverstest is the conformance suite every gobench driver runs, and
// a small benchmark kit for drivers.
//
// [Run] opens a fresh [drivers.DB] for each sub-test through the caller's
// open function, configured with [Schema], and checks the contract of
// [drivers.Conn]: insert then read back every field, reads of chosen fields,
// partial updates, deletes and NOT_FOUND, scan order and limits, scans with a
// field set, many concurrent connections, large, binary and empty values, and
// closing. Each sub-test works in its own table, named from [TablePrefix], the
// sub-test and a per-run nonce, so the suite can run again and again against a
// persistent real server. When the DB implements [drivers.TableAdmin] the
// suite creates the table first and drops it afterwards.
//
// Writes that return BATCHED_OK count as done; when the Conn implements
// [drivers.BatchWriter] the suite flushes it before reading, and the
// Lifecycle test checks that Conn.Close flushes.
//
// A driver states what it cannot do with options ([NoScan], [NoDelete],
// [NoData], [Eventual], [MaxValueSize], [NoBinaryKeys], [QueryOnly]); everything else is
// required.
//
// It may import the standard library, testing, gobench/drivers and
// gobench/props; it never imports a concrete driver.
//
//	func TestConformance(t *testing.T) {
//		driverstest.Run(t, func(t *testing.T) drivers.DB {
//			db, err := mydriver.Driver{}.Configure(props.NewDecoder(&props.Set{}), driverstest.Schema())
//			if err != nil {
//				t.Fatal(err)
//			}
//			return db
//		})
//	}
package driverstest
