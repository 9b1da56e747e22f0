#!/bin/sh
# run.sh JUNIT ID…: "runs" each test: appends "$MACHINE $RUN_LABEL ID" to $RAN_LOG (the test's own
# record of what ran where, independent of robotci's reports) and writes a passing JUnit case.
junit=$1
shift
{
  echo '<testsuite name="partitions">'
  for id in "$@"; do
    echo "$MACHINE $RUN_LABEL $id" >> "$RAN_LOG"
    echo "<testcase classname=\"${id%%::*}\" name=\"${id#*::}\" time=\"0.01\"/>"
  done
  echo '</testsuite>'
} > "$junit"
