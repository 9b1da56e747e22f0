#!/bin/sh
# Six test ids in one class, two of them named like a repetition's text form.
printf '%s\n' 'suite.Names::test_a' 'suite.Names::test_b' 'suite.Names::testX(repeat 1 of 2)' \
  'suite.Names::test_y (repeat 1 of 2)' 'suite.Names::test_c' 'suite.Names::test_d'
