# shellcheck shell=bash
sec_kafka_up() { te_log "secure kafka: not yet"; return 1; }
