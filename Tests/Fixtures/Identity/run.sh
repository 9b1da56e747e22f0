#!/bin/sh
# run.sh JUNIT ID…: "runs" each test and writes its JUnit case: a failure for every name in $FAIL,
# and for each id in $FLAKY the first time it runs ($STATE, a folder, remembers which ran).
junit=$1
shift
{
  echo '<testsuite name="identity">'
  for id in "$@"; do
    name=${id#*::}
    verdict=pass
    # A whole name between spaces, so a name with spaces (`test_y (repeat 1 of 2)`) can fail too.
    case " $FAIL " in *" $name "*) verdict=fail ;; esac
    if [ -n "$FLAKY" ] && [ -n "$STATE" ]; then
      mark="$STATE/$(printf '%s' "$id" | cksum | cut -d' ' -f1)"
      case " $FLAKY " in *" $name "*) [ -e "$mark" ] || verdict=fail; touch "$mark" ;; esac
    fi
    if [ "$verdict" = fail ]; then
      echo "<testcase classname=\"${id%%::*}\" name=\"$name\" time=\"0.01\"><failure message=\"failed on purpose\"/></testcase>"
    else
      echo "<testcase classname=\"${id%%::*}\" name=\"$name\" time=\"0.01\"/>"
    fi
  done
  echo '</testsuite>'
} > "$junit"
