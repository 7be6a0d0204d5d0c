// A thin shim over sd-bus (libsystemd) for Tonearm's MPRIS service. Swift cannot expand sd-bus's
// vtable macros nor call its variadic append/read/emit functions, so the two MPRIS vtables and
// one small non-variadic helper per D-Bus type live here. Every property read and method call is
// handed to the Swift side through the callbacks in `tn_mpris`; sd-bus is used from one thread.
#ifndef TONEARM_SDBUS_SHIM_H
#define TONEARM_SDBUS_SHIM_H

#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-daemon.h>

#define TN_MPRIS_PATH "/org/mpris/MediaPlayer2"
#define TN_MPRIS_ROOT "org.mpris.MediaPlayer2"
#define TN_MPRIS_PLAYER "org.mpris.MediaPlayer2.Player"

typedef struct tn_mpris {
    sd_bus *bus;
    sd_bus_slot *root_slot;
    sd_bus_slot *player_slot;
    void *context;
    /// Writes the value of `property` of `interface` into `reply`; returns >= 0 or -errno.
    int (*get_property)(void *context, int is_player, const char *property, sd_bus_message *reply);
    /// Handles method `member`; reads its arguments from `message`. Returns >= 0 or -errno.
    int (*call_method)(void *context, int is_player, const char *member, sd_bus_message *message);
    /// Sets writable `property` of the Player interface from `value`. Returns >= 0 or -errno.
    int (*set_property)(void *context, const char *property, sd_bus_message *value);
} tn_mpris;

static int tn_property_get(sd_bus *bus, const char *path, const char *interface, const char *property,
                           sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    (void)bus; (void)path; (void)error;
    tn_mpris *m = userdata;
    return m->get_property(m->context, strcmp(interface, TN_MPRIS_PLAYER) == 0, property, reply);
}

static int tn_property_set(sd_bus *bus, const char *path, const char *interface, const char *property,
                           sd_bus_message *value, void *userdata, sd_bus_error *error) {
    (void)bus; (void)path; (void)interface; (void)error;
    tn_mpris *m = userdata;
    return m->set_property(m->context, property, value);
}

static int tn_method(sd_bus_message *message, void *userdata, sd_bus_error *error) {
    (void)error;
    tn_mpris *m = userdata;
    const char *interface = sd_bus_message_get_interface(message);
    int r = m->call_method(m->context, interface && strcmp(interface, TN_MPRIS_PLAYER) == 0, sd_bus_message_get_member(message), message);
    if (r < 0) return r;
    return sd_bus_reply_method_return(message, "");
}

#define TN_CONST SD_BUS_VTABLE_PROPERTY_CONST
#define TN_CHANGES SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE

static const sd_bus_vtable tn_root_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Raise", "", "", tn_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Quit", "", "", tn_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_PROPERTY("CanQuit", "b", tn_property_get, 0, TN_CONST),
    SD_BUS_PROPERTY("CanRaise", "b", tn_property_get, 0, TN_CONST),
    SD_BUS_PROPERTY("HasTrackList", "b", tn_property_get, 0, TN_CONST),
    SD_BUS_PROPERTY("Identity", "s", tn_property_get, 0, TN_CONST),
    SD_BUS_PROPERTY("DesktopEntry", "s", tn_property_get, 0, TN_CONST),
    SD_BUS_PROPERTY("SupportedUriSchemes", "as", tn_property_get, 0, TN_CONST),
    SD_BUS_PROPERTY("SupportedMimeTypes", "as", tn_property_get, 0, TN_CONST),
    SD_BUS_VTABLE_END
};

static const sd_bus_vtable tn_player_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Next", "", "", tn_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Previous", "", "", tn_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Pause", "", "", tn_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("PlayPause", "", "", tn_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Stop", "", "", tn_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Play", "", "", tn_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Seek", "x", "", tn_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("SetPosition", "ox", "", tn_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("OpenUri", "s", "", tn_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_SIGNAL("Seeked", "x", 0),
    SD_BUS_PROPERTY("PlaybackStatus", "s", tn_property_get, 0, TN_CHANGES),
    SD_BUS_PROPERTY("LoopStatus", "s", tn_property_get, 0, TN_CONST),
    SD_BUS_WRITABLE_PROPERTY("Rate", "d", tn_property_get, tn_property_set, 0, TN_CHANGES | SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_PROPERTY("Shuffle", "b", tn_property_get, 0, TN_CONST),
    SD_BUS_PROPERTY("Metadata", "a{sv}", tn_property_get, 0, TN_CHANGES),
    // Tonearm's own volume (a gain on its mix), not the sound server's.
    SD_BUS_WRITABLE_PROPERTY("Volume", "d", tn_property_get, tn_property_set, 0, TN_CHANGES | SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_PROPERTY("Position", "x", tn_property_get, 0, 0),
    SD_BUS_PROPERTY("MinimumRate", "d", tn_property_get, 0, TN_CONST),
    SD_BUS_PROPERTY("MaximumRate", "d", tn_property_get, 0, TN_CONST),
    SD_BUS_PROPERTY("CanGoNext", "b", tn_property_get, 0, TN_CHANGES),
    SD_BUS_PROPERTY("CanGoPrevious", "b", tn_property_get, 0, TN_CHANGES),
    SD_BUS_PROPERTY("CanPlay", "b", tn_property_get, 0, TN_CHANGES),
    SD_BUS_PROPERTY("CanPause", "b", tn_property_get, 0, TN_CHANGES),
    SD_BUS_PROPERTY("CanSeek", "b", tn_property_get, 0, TN_CHANGES),
    SD_BUS_PROPERTY("CanControl", "b", tn_property_get, 0, TN_CONST),
    SD_BUS_VTABLE_END
};

/// Connects to the session bus, publishes both interfaces at /org/mpris/MediaPlayer2 and takes
/// `name` (or `name.instance<pid>` when it is taken). Returns 0 or -errno; `taken` gets the name.
static inline int tn_mpris_open(tn_mpris *m, const char *name, char *taken, size_t taken_size) {
    int r = sd_bus_open_user(&m->bus);
    if (r < 0) return r;
    r = sd_bus_add_object_vtable(m->bus, &m->root_slot, TN_MPRIS_PATH, TN_MPRIS_ROOT, tn_root_vtable, m);
    if (r < 0) return r;
    r = sd_bus_add_object_vtable(m->bus, &m->player_slot, TN_MPRIS_PATH, TN_MPRIS_PLAYER, tn_player_vtable, m);
    if (r < 0) return r;
    snprintf(taken, taken_size, "%s", name);
    r = sd_bus_request_name(m->bus, taken, 0);
    if (r == -EEXIST) {
        snprintf(taken, taken_size, "%s.instance%ld", name, (long)getpid());
        r = sd_bus_request_name(m->bus, taken, 0);
    }
    return r < 0 ? r : 0;
}

static inline void tn_mpris_close(tn_mpris *m) {
    if (m->player_slot) m->player_slot = sd_bus_slot_unref(m->player_slot);
    if (m->root_slot) m->root_slot = sd_bus_slot_unref(m->root_slot);
    if (m->bus) m->bus = sd_bus_flush_close_unref(m->bus);
}

/// Handles what has arrived, then waits up to `timeout_us` for more. Returns < 0 on a bus error.
static inline int tn_mpris_step(tn_mpris *m, uint64_t timeout_us) {
    int r;
    do {
        r = sd_bus_process(m->bus, NULL);
    } while (r > 0);
    if (r < 0) return r;
    r = sd_bus_wait(m->bus, timeout_us);
    return r < 0 && r != -EINTR ? r : 0;
}

/// PropertiesChanged for the NULL-terminated `names` of the Player interface.
static inline int tn_mpris_changed(tn_mpris *m, char **names) {
    return sd_bus_emit_properties_changed_strv(m->bus, TN_MPRIS_PATH, TN_MPRIS_PLAYER, names);
}

static inline int tn_mpris_seeked(tn_mpris *m, int64_t position_us) {
    return sd_bus_emit_signal(m->bus, TN_MPRIS_PATH, TN_MPRIS_PLAYER, "Seeked", "x", position_us);
}

// One non-variadic append per type the service writes.
static inline int tn_append_string(sd_bus_message *m, const char *s) { return sd_bus_message_append(m, "s", s); }
static inline int tn_append_bool(sd_bus_message *m, int b) { return sd_bus_message_append(m, "b", b); }
static inline int tn_append_int64(sd_bus_message *m, int64_t x) { return sd_bus_message_append(m, "x", x); }
static inline int tn_append_double(sd_bus_message *m, double d) { return sd_bus_message_append(m, "d", d); }
static inline int tn_append_strv(sd_bus_message *m, char **strv) { return sd_bus_message_append_strv(m, strv); }

static inline int tn_open_dict(sd_bus_message *m) { return sd_bus_message_open_container(m, 'a', "{sv}"); }
static inline int tn_close(sd_bus_message *m) { return sd_bus_message_close_container(m); }
static inline int tn_dict_string(sd_bus_message *m, const char *key, const char *value) {
    return sd_bus_message_append(m, "{sv}", key, "s", value);
}
static inline int tn_dict_object_path(sd_bus_message *m, const char *key, const char *value) {
    return sd_bus_message_append(m, "{sv}", key, "o", value);
}
static inline int tn_dict_int64(sd_bus_message *m, const char *key, int64_t value) {
    return sd_bus_message_append(m, "{sv}", key, "x", value);
}
static inline int tn_dict_strings(sd_bus_message *m, const char *key, const char *one) {
    return sd_bus_message_append(m, "{sv}", key, "as", 1, one);
}
static inline int tn_dict_int32(sd_bus_message *m, const char *key, int32_t value) {
    return sd_bus_message_append(m, "{sv}", key, "i", value);
}
/// A `{sv}` entry whose value is a list of strings (`as`), `strv` ending in NULL.
static inline int tn_dict_strv(sd_bus_message *m, const char *key, char **strv) {
    int r = sd_bus_message_open_container(m, 'e', "sv");
    if (r >= 0) r = sd_bus_message_append(m, "s", key);
    if (r >= 0) r = sd_bus_message_open_container(m, 'v', "as");
    if (r >= 0) r = sd_bus_message_append_strv(m, strv);
    if (r >= 0) r = sd_bus_message_close_container(m);
    if (r >= 0) r = sd_bus_message_close_container(m);
    return r;
}

// Reading arguments.
static inline int tn_read_int64(sd_bus_message *m, int64_t *x) { return sd_bus_message_read(m, "x", x); }
static inline int tn_read_double(sd_bus_message *m, double *d) { return sd_bus_message_read(m, "d", d); }
static inline int tn_read_string(sd_bus_message *m, const char **s) { return sd_bus_message_read(m, "s", s); }
static inline int tn_read_path_int64(sd_bus_message *m, const char **path, int64_t *x) {
    return sd_bus_message_read(m, "ox", path, x);
}

// The client side, for `tonearm share`: the `tonearm:share` line of the first Tonearm player on
// the session bus (org.mpris.MediaPlayer2.tonearm, or .tonearm.instancePID). Returns 0 with the
// line in `out`, -ESRCH when no Tonearm player is on the bus, -ENOENT when it plays nothing,
// or another -errno.
static inline int tn_share_line(char *out, size_t out_size) {
    sd_bus *bus = NULL;
    sd_bus_message *names = NULL, *reply = NULL;
    sd_bus_error error = SD_BUS_ERROR_NULL;
    char player[256] = "";
    int r = sd_bus_open_user(&bus);
    if (r < 0) goto done;
    r = sd_bus_call_method(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListNames",
                           &error, &names, "");
    if (r < 0) goto done;
    r = sd_bus_message_enter_container(names, 'a', "s");
    if (r < 0) goto done;
    const char *name;
    while ((r = sd_bus_message_read(names, "s", &name)) > 0) {
        if (strcmp(name, TN_MPRIS_ROOT ".tonearm") == 0 || strncmp(name, TN_MPRIS_ROOT ".tonearm.instance", 33) == 0) {
            snprintf(player, sizeof player, "%s", name);
            break;
        }
    }
    if (r < 0) goto done;
    if (player[0] == 0) { r = -ESRCH; goto done; }
    r = sd_bus_get_property(bus, player, TN_MPRIS_PATH, TN_MPRIS_PLAYER, "Metadata", &error, &reply, "a{sv}");
    if (r < 0) goto done;
    r = sd_bus_message_enter_container(reply, 'a', "{sv}");
    if (r < 0) goto done;
    int found = 0;
    while (!found && (r = sd_bus_message_enter_container(reply, 'e', "sv")) > 0) {
        const char *key;
        r = sd_bus_message_read(reply, "s", &key);
        if (r < 0) goto done;
        if (strcmp(key, "tonearm:share") == 0) {
            const char *line;
            r = sd_bus_message_read(reply, "v", "s", &line);
            if (r < 0) goto done;
            snprintf(out, out_size, "%s", line);
            found = 1;
        } else {
            r = sd_bus_message_skip(reply, "v");
            if (r < 0) goto done;
        }
        r = sd_bus_message_exit_container(reply);
        if (r < 0) goto done;
    }
    if (r < 0) goto done;
    r = found ? 0 : -ENOENT;
done:
    sd_bus_error_free(&error);
    if (names) sd_bus_message_unref(names);
    if (reply) sd_bus_message_unref(reply);
    if (bus) sd_bus_flush_close_unref(bus);
    return r;
}

#endif
