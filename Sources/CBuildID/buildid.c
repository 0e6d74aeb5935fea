#define _GNU_SOURCE
#include "cbuildid.h"

#include <elf.h>
#include <link.h>
#include <string.h>

struct found {
    unsigned char *buffer;
    size_t capacity;
    size_t length;
};

static int look(struct dl_phdr_info *info, size_t size, void *context) {
    (void)size;
    struct found *found = context;
    for (int index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[index];
        if (header->p_type != PT_NOTE) continue;
        const unsigned char *note = (const unsigned char *)(info->dlpi_addr + header->p_vaddr);
        const unsigned char *end = note + header->p_memsz;
        while (note + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *head = (const ElfW(Nhdr) *)note;
            const unsigned char *name = note + sizeof(ElfW(Nhdr));
            const unsigned char *description = name + ((head->n_namesz + 3) & ~3u);
            const unsigned char *next = description + ((head->n_descsz + 3) & ~3u);
            if (next > end) break;
            if (head->n_type == NT_GNU_BUILD_ID && head->n_namesz == 4 && memcmp(name, "GNU", 4) == 0) {
                found->length = head->n_descsz < found->capacity ? head->n_descsz : found->capacity;
                memcpy(found->buffer, description, found->length);
                return 1;
            }
            note = next;
        }
    }
    // The first object is the program itself; its libraries are not asked.
    return 1;
}

size_t moya_build_id(unsigned char *buffer, size_t capacity) {
    struct found found = {buffer, capacity, 0};
    dl_iterate_phdr(look, &found);
    return found.length;
}
