#ifndef ROBOTCI_CLIBXML2_SHIM_H
#define ROBOTCI_CLIBXML2_SHIM_H
/* Debian's libxml2 is built with ICU and its encoding.h then includes ICU's
   headers, which clash with the ICU copy inside Foundation. robotci never uses
   libxml2's ICU converters, so hide them. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlwriter.h>
#include <libxml/xmlsave.h>
#include <libxml/xmlerror.h>

/* xmlFree is a global function pointer, which Swift 6 treats as shared mutable state. */
static inline void robotci_xml_free(void *p) { xmlFree(p); }
#endif
