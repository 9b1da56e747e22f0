"""A crash and a hang: each must cost only its own test."""
import ctypes
import time


def test_crashes():
    print("about to crash")
    ctypes.string_at(0)  # SIGSEGV: the whole pytest process dies


def test_hangs():
    print("about to hang")
    time.sleep(3600)


def test_after_faults():
    assert True
