package main

import _ "github.com/gobench/gobench/drivers/kafka"
