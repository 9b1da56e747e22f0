#ifndef ROBOTCI_CHIREDIS_SHIM_H
#define ROBOTCI_CHIREDIS_SHIM_H
#include <hiredis/hiredis.h>
#endif
