/* test_text.c - dem_text_printable (lib/core/text.c): every byte a terminal could act on is
 * escaped, printable ASCII and valid UTF-8 are kept (issue 29: a setting holding ESC[2J once
 * cleared the user's terminal through an error message). */
#include "core/error.h"
#include "core/text.h"
#include "unit.h"

static int printable_is(const char *in, const char *want, size_t size)
{
    char out[256];
    size_t n = dem_text_printable(out, size, in);
    if (strcmp(out, want) != 0 || n != strlen(want)) {
        fprintf(stderr, "got '%s' (%zu), want '%s'\n", out, n, want);
        return 0;
    }
    return 1;
}

int main(void)
{
    CHECK(printable_is("hooke", "hooke", 256));
    CHECK(printable_is("\x1b[2J", "\\x1b[2J", 256));                   /* ESC: clears a terminal */
    CHECK(printable_is("a\tb\nc\x7f", "a\\x09b\\x0ac\\x7f", 256));      /* C0 controls and DEL */
    CHECK(printable_is("Stahl_\xc3\xbc", "Stahl_\xc3\xbc", 256));       /* UTF-8 kept */
    CHECK(printable_is("\xe2\x82\xac \xf0\x9f\x98\x80", "\xe2\x82\xac \xf0\x9f\x98\x80", 256));
    CHECK(printable_is("\xc2\x9b" "1m", "\\xc2\\x9b1m", 256));           /* C1 CSI in UTF-8 */
    CHECK(printable_is("\x9b" "1m", "\\x9b1m", 256));                    /* raw C1 CSI */
    CHECK(printable_is("\xff\xc3", "\\xff\\xc3", 256));                  /* not UTF-8; cut short */
    CHECK(printable_is("\xc0\xaf\xed\xa0\x80", "\\xc0\\xaf\\xed\\xa0\\x80", 256)); /* overlong, surrogate */
    CHECK(printable_is("\\x41", "\\x41", 256));                          /* a backslash as is */
    /* cut at a character: never half an escape or half a UTF-8 sequence */
    CHECK(printable_is("ab\x1b", "ab", 6));
    CHECK(printable_is("ab\x1b", "ab\\x1b", 7));
    CHECK(printable_is("a\xc3\xbc", "a", 3));
    CHECK(printable_is("", "", 1));
    /* dem_fail escapes what a message quotes */
    dem_error err;
    dem_fail(&err, DEM_ERR_VALUE, "unknown '%s'", "\x1b[2J");
    CHECK(strcmp(err.msg, "unknown '\\x1b[2J'") == 0);
    UNIT_DONE();
}
