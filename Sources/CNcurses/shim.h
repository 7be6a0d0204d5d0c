// A thin shim over ncursesw: Swift cannot call its variadic functions or expand its macros
// (COLOR_PAIR, A_BOLD, getmaxyx, the KEY_ constants), so each is wrapped once here.
#ifndef TONEARM_NCURSES_SHIM_H
#define TONEARM_NCURSES_SHIM_H

#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <curses.h>
#include <wchar.h>
#include <stdio.h>
#include <unistd.h>

enum {
    TN_ERR = ERR,
    TN_KEY_CODE = KEY_CODE_YES,
    TN_KEY_UP = KEY_UP,
    TN_KEY_DOWN = KEY_DOWN,
    TN_KEY_LEFT = KEY_LEFT,
    TN_KEY_RIGHT = KEY_RIGHT,
    TN_KEY_ENTER = KEY_ENTER,
    TN_KEY_BACKSPACE = KEY_BACKSPACE,
    TN_KEY_RESIZE = KEY_RESIZE,
};

enum { TN_ATTR_BOLD = 1, TN_ATTR_DIM = 2, TN_ATTR_REVERSE = 4 };

/// Starts curses on the terminal in the locale's encoding: no echo, keys unbuffered, keypad
/// decoding, hidden cursor, default colours kept. Returns 0, or -1 when the terminal is unusable.
// Bytes sent to the terminal beside curses (an OSC 52 clipboard request), after everything
// curses had buffered. Returns 0, or -1 when the terminal would not take them all.
static inline int tn_write_raw(const unsigned char *bytes, size_t count) {
    fflush(stdout);
    size_t done = 0;
    while (done < count) {
        ssize_t n = write(STDOUT_FILENO, bytes + done, count - done);
        if (n <= 0) return -1;
        done += (size_t)n;
    }
    return 0;
}

static inline int tn_start(int input_timeout_ms) {
    setlocale(LC_ALL, "");
    if (initscr() == NULL) return -1;
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    curs_set(0);
    timeout(input_timeout_ms);
    // Esc alone is a key here (back, cancel): wait 25 ms, not a second, for a sequence after it.
    set_escdelay(25);
    if (has_colors()) {
        start_color();
        use_default_colors();
    }
    return 0;
}

static inline void tn_end(void) {
    if (!isendwin()) endwin();
}

static inline int tn_colors(void) { return has_colors() ? COLORS : 0; }
static inline int tn_color_pairs(void) { return has_colors() ? COLOR_PAIRS : 0; }

static inline void tn_size(int *rows, int *columns) {
    int y, x;
    getmaxyx(stdscr, y, x);
    *rows = y;
    *columns = x;
}

/// Defines colour pair `pair` (1...); -1 is the terminal's default colour.
static inline int tn_define_pair(int pair, int foreground, int background) {
    return init_extended_pair(pair, foreground, background);
}

/// Writes a UTF-8 run at (`row`, `column`) in colour pair `pair` with TN_ATTR_* flags.
static inline void tn_put(int row, int column, const char *utf8, int pair, int flags) {
    attr_t attrs = A_NORMAL;
    if (flags & TN_ATTR_BOLD) attrs |= A_BOLD;
    if (flags & TN_ATTR_DIM) attrs |= A_DIM;
    if (flags & TN_ATTR_REVERSE) attrs |= A_REVERSE;
    attr_set(attrs, 0, &pair);
    mvaddstr(row, column, utf8);
}

static inline void tn_clear(void) { erase(); }
static inline void tn_refresh(void) { refresh(); }

/// One key: returns TN_ERR (none within the timeout), OK (a character in *value) or
/// TN_KEY_CODE (a function key in *value).
static inline int tn_read_key(unsigned *value) {
    wint_t key = 0;
    int kind = get_wch(&key);
    *value = (unsigned)key;
    return kind;
}

#endif
