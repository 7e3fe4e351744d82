/* The asynchronous event schedule (AES): its extraction from a CAT.  Byte
 * layout, reader and writer: AES.md and aesfile.h in formats/.  Internal
 * header: the public API is <citcat/aes.h>. */
#ifndef CITCAT_AES_H
#define CITCAT_AES_H

#include <citcat/aes.h>

#include "aesfile.h" /* the file format: raw records, ISA, M7 exception numbers */
#include "citcat.h"
#include "ims.h"

#endif
