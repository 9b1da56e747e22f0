#ifndef ROBOTCI_CLIBXML2_SHIM_H
#define ROBOTCI_CLIBXML2_SHIM_H
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlwriter.h>
#include <libxml/xmlsave.h>
#include <libxml/xmlerror.h>
#endif
