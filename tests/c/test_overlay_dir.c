/*
 * test_overlay_dir.c: gsd_registry_with_overlay_dir on real trees built in a temporary
 * directory: symlinks (folder, capability.json, a fragment pointing outside, a directory),
 * FIFOs (as capability.json and as a fragment: never opened, so nothing blocks; an alarm
 * kills the run if something does), a directory named capability.json, non-UTF-8 content
 * and names, unreadable files (as root: in a child that dropped to uid 65534, since root
 * reads through mode 000), too many files, too deep, too many bytes per folder and per
 * root (sparse files: no disk used; inotify proves a refused folder is never opened), a
 * missing manifest, the root checks, and independence from creation order. The rules and
 * diagnostic codes are the overlay-edge contract shared with the Node package
 * (docs/c-api.md, "Loading overlays from disk"; docs/reliability.md).
 */
#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE /* setgroups */

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/inotify.h>
#endif

#include "check.h"

/* A valid third-party feature (the "feature" base of tests/hostile/bases.json), id %s. */
static const char *const FEATURE =
    "{\"id\":\"%s\",\"role\":\"feature\",\"version\":\"1.0.0\",\"title\":\"Acme notes\","
    "\"description\":\"Third-party feature used by the overlay loader tests.\",\"tier\":\"full\","
    "\"requires\":[],\"engines\":{\"gsd\":\">=1.6.0\"},\"runtimeCompat\":{\"supported\":[\"*\"],"
    "\"unsupported\":[]},\"skills\":[],\"agents\":[],\"hooks\":[],\"config\":{},\"steps\":[],"
    "\"contributions\":[],\"gates\":[]}";

static char base_dir[256];
static uint8_t sentinel_byte;

/* base_dir/<rel> in a rotating set of buffers (so several can be alive at once). */
static const char *at(const char *rel) {
    static char buffers[8][1024];
    static int next = 0;
    char *out = buffers[next++ % 8];
    snprintf(out, 1024, "%s/%s", base_dir, rel);
    return out;
}

static void make_dir(const char *rel) {
    CHECK(mkdir(at(rel), 0755) == 0);
}

static void write_bytes(const char *rel, const char *bytes, size_t len) {
    FILE *f = fopen(at(rel), "wb");
    CHECK(f != NULL);
    if (f == NULL) return;
    CHECK(fwrite(bytes, 1, len, f) == len);
    fclose(f);
}

static void write_text(const char *rel, const char *text) {
    write_bytes(rel, text, strlen(text));
}

/* Writes a small file without a check of its own (for bulk trees); returns success. */
static int write_quiet(const char *rel, const char *text) {
    FILE *f = fopen(at(rel), "wb");
    int ok = f != NULL && fputs(text, f) >= 0;
    if (f != NULL && fclose(f) != 0) ok = 0;
    return ok;
}

/* A folder <root>/<id> with a valid manifest and nothing else; returns the manifest size. */
static off_t bare_feature(const char *root, const char *id) {
    char rel[512], manifest[2048];
    snprintf(rel, sizeof rel, "%s/%s", root, id);
    make_dir(rel);
    snprintf(manifest, sizeof manifest, FEATURE, id);
    snprintf(rel, sizeof rel, "%s/%s/capability.json", root, id);
    write_text(rel, manifest);
    return (off_t)strlen(manifest);
}

/* A valid feature folder <root>/<id> with capability.json (and one fragment). */
static void write_feature(const char *root, const char *id) {
    char rel[512];
    bare_feature(root, id);
    snprintf(rel, sizeof rel, "%s/%s/README.md", root, id);
    write_text(rel, "# notes\n");
}

static void make_link(const char *target, const char *rel) {
    CHECK(symlink(target, at(rel)) == 0);
}

static void make_fifo(const char *rel) {
    CHECK(mkfifo(at(rel), 0644) == 0);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* Loads base_dir/<root>; on success *diagnostics and *ids hold the registry's JSON. */
static gsd_status load(gsd_registry *base, const char *root, gsd_bytes *diagnostics, gsd_bytes *ids) {
    gsd_registry *registry = NULL;
    gsd_error *err = NULL;
    const char *dir = at(root);
    gsd_status status = gsd_registry_with_overlay_dir(base, STR(dir), &registry, &err);
    if (status == GSD_STATUS_OK) {
        CHECK(err == NULL);
        CHECK(gsd_registry_diagnostics(registry, diagnostics, NULL) == GSD_STATUS_OK);
        CHECK(gsd_registry_third_party_ids(registry, ids, NULL) == GSD_STATUS_OK);
    } else {
        fprintf(stderr, "  load %s: %s\n", root, gsd_error_message(err));
    }
    gsd_error_free(err);
    gsd_registry_free(registry);
    return status;
}

/* Loads a root that must succeed, then expects exactly `diagnostics` and `ids`. */
static void expect_load(gsd_registry *base, const char *root, const char *diagnostics, const char *ids) {
    gsd_bytes diags = {NULL, 0}, admitted = {NULL, 0};
    CHECK(load(base, root, &diags, &admitted) == GSD_STATUS_OK);
    CHECK(bytes_eq(&diags, diagnostics));
    if (!bytes_eq(&diags, diagnostics)) fprintf(stderr, "  [%s] diagnostics were: %s\n", root, (char *)diags.ptr);
    CHECK(bytes_eq(&admitted, ids));
    if (!bytes_eq(&admitted, ids)) fprintf(stderr, "  [%s] admitted: %s\n", root, (char *)admitted.ptr);
    gsd_bytes_free(&diags);
    gsd_bytes_free(&admitted);
}

#define DIAG(code, id, field, message)                                                          \
    "{\"code\":\"" code "\",\"severity\":\"error\",\"capabilityId\":\"" id "\",\"field\":\"" field \
    "\",\"message\":\"" message "\"}"
#define DIAG_NO_FIELD(code, id, message)                                                       \
    "{\"code\":\"" code "\",\"severity\":\"error\",\"capabilityId\":\"" id "\",\"message\":\"" message "\"}"

static void test_valid_overlay_is_admitted(gsd_registry *base) {
    make_dir("valid");
    write_feature("valid", "acme-notes");
    make_dir("valid/acme-notes/docs");
    write_text("valid/acme-notes/docs/guide.md", "guide\n");
    /* root entries that are not directories are ignored, never opened (a FIFO would block) */
    write_text("valid/stray.txt", "x");
    make_fifo("valid/stray-fifo");
    expect_load(base, "valid", "[]", "[\"acme-notes\"]");
}

static void test_symlinked_folder_is_refused(gsd_registry *base) {
    make_dir("outside");
    write_feature("outside", "acme-link");
    make_dir("linked-folder");
    make_link("../outside/acme-link", "linked-folder/acme-link");
    expect_load(base, "linked-folder",
                "[" DIAG_NO_FIELD("overlay_symlink_refused", "acme-link",
                                  "overlay folder 'acme-link' is a symbolic link; links are never followed") "]",
                "[]");
}

static void test_symlinked_manifest_is_refused(gsd_registry *base) {
    make_dir("linked-manifest");
    make_dir("linked-manifest/acme-outside");
    make_link("../../outside/acme-link/capability.json", "linked-manifest/acme-outside/capability.json");
    expect_load(base, "linked-manifest",
                "[" DIAG("overlay_symlink_refused", "acme-outside", "capability.json",
                         "'acme-outside/capability.json' is a symbolic link (links are never followed); the "
                         "overlay folder is refused") "]",
                "[]");
}

static void test_symlinked_fragment_is_not_inlined(gsd_registry *base) {
    gsd_bytes diags = {NULL, 0}, ids = {NULL, 0};
    write_text("outside/secret.txt", "TOP-SECRET-CONTENT");
    make_dir("linked-fragment");
    write_feature("linked-fragment", "acme-notes");
    make_link(at("outside/secret.txt"), "linked-fragment/acme-notes/notes.md");
    CHECK(load(base, "linked-fragment", &diags, &ids) == GSD_STATUS_OK);
    CHECK(bytes_contain(&diags, DIAG("overlay_symlink_refused", "acme-notes", "notes.md",
                                     "'acme-notes/notes.md' is a symbolic link (links are never followed); the "
                                     "overlay folder is refused")));
    CHECK(!bytes_contain(&diags, "TOP-SECRET"));
    CHECK(bytes_eq(&ids, "[]"));
    gsd_bytes_free(&diags);
    gsd_bytes_free(&ids);
}

static void test_symlinked_directory_is_refused(gsd_registry *base) {
    make_dir("linked-dir");
    write_feature("linked-dir", "acme-notes");
    make_link("../../outside", "linked-dir/acme-notes/docs");
    expect_load(base, "linked-dir",
                "[" DIAG("overlay_symlink_refused", "acme-notes", "docs",
                         "'acme-notes/docs' is a symbolic link (links are never followed); the overlay folder "
                         "is refused") "]",
                "[]");
}

static void test_fifos_are_never_opened(gsd_registry *base) {
    make_dir("fifo-manifest");
    make_dir("fifo-manifest/acme-notes");
    make_fifo("fifo-manifest/acme-notes/capability.json");
    expect_load(base, "fifo-manifest",
                "[" DIAG("overlay_not_regular_file", "acme-notes", "capability.json",
                         "'acme-notes/capability.json' is neither a regular file nor a directory; the overlay "
                         "folder is refused") "]",
                "[]");
    make_dir("fifo-fragment");
    write_feature("fifo-fragment", "acme-notes");
    make_dir("fifo-fragment/acme-notes/sub");
    make_fifo("fifo-fragment/acme-notes/sub/pipe.md");
    expect_load(base, "fifo-fragment",
                "[" DIAG("overlay_not_regular_file", "acme-notes", "sub/pipe.md",
                         "'acme-notes/sub/pipe.md' is neither a regular file nor a directory; the overlay "
                         "folder is refused") "]",
                "[]");
}

static void test_directory_named_manifest(gsd_registry *base) {
    make_dir("dir-manifest");
    make_dir("dir-manifest/acme-notes");
    make_dir("dir-manifest/acme-notes/capability.json");
    expect_load(base, "dir-manifest",
                "[" DIAG("overlay_not_regular_file", "acme-notes", "capability.json",
                         "'acme-notes/capability.json' is a directory, not a regular file; the overlay folder "
                         "is refused") "]",
                "[]");
}

static void test_missing_manifest(gsd_registry *base) {
    make_dir("no-manifest");
    make_dir("no-manifest/acme-notes");
    write_text("no-manifest/acme-notes/README.md", "hi");
    expect_load(base, "no-manifest",
                "[" DIAG("overlay_manifest_missing", "acme-notes", "capability.json",
                         "overlay folder 'acme-notes' has no capability.json") "]",
                "[]");
}

static void test_non_utf8(gsd_registry *base) {
    make_dir("bad-utf8");
    write_feature("bad-utf8", "acme-notes");
    write_bytes("bad-utf8/acme-notes/notes.md", "ok\xff\xfe", 4);
    expect_load(base, "bad-utf8",
                "[" DIAG("overlay_not_utf8", "acme-notes", "notes.md",
                         "'acme-notes/notes.md' is not valid UTF-8 (invalid byte at offset 2); the overlay "
                         "folder is refused") "]",
                "[]");
    /* a name that is not UTF-8 (and one with an ESC) is escaped, never shown raw */
    make_dir("bad-name");
    write_feature("bad-name", "acme-notes");
    write_text("bad-name/acme-notes/n\xffo\x1b[31m.md", "x");
    expect_load(base, "bad-name",
                "[" DIAG("overlay_not_utf8", "acme-notes", "n\\\\xffo\\\\u{1b}[31m.md",
                         "'acme-notes/n\\\\xffo\\\\u{1b}[31m.md' has a name that is not valid UTF-8; the "
                         "overlay folder is refused") "]",
                "[]");
}

/* A folder name that would not print as itself (ESC, U+202E, a backslash) is refused by the
   loader, escaped in capabilityId and message alike; the core never sees it, so no
   diagnostic carries it raw. A non-UTF-8 folder name stays overlay_not_utf8. */
static void test_unsafe_folder_names(gsd_registry *base) {
    char manifest[2048];
    gsd_bytes diags = {NULL, 0}, ids = {NULL, 0};
    make_dir("unsafe-names");
    write_feature("unsafe-names", "acme-notes");
    make_dir("unsafe-names/acme\x1b[31m");
    snprintf(manifest, sizeof manifest, FEATURE, "acme-esc");
    write_text("unsafe-names/acme\x1b[31m/capability.json", manifest);
    make_dir("unsafe-names/acme\xe2\x80\xaeton"); /* U+202E RIGHT-TO-LEFT OVERRIDE */
    write_text("unsafe-names/acme\xe2\x80\xaeton/capability.json", manifest);
    make_dir("unsafe-names/back\\slash");
    write_text("unsafe-names/back\\slash/capability.json", manifest);
    make_dir("unsafe-names/bad\xff");
    write_text("unsafe-names/bad\xff/capability.json", manifest);
    expect_load(base, "unsafe-names",
                "[" DIAG_NO_FIELD("overlay_unsafe_name", "acme\\\\u{1b}[31m",
                                  "overlay folder name 'acme\\\\u{1b}[31m' holds a control, bidi or zero-width "
                                  "character or a backslash (shown escaped); the overlay folder is refused unread")
                "," DIAG_NO_FIELD("overlay_unsafe_name", "acme\\\\u{202e}ton",
                                  "overlay folder name 'acme\\\\u{202e}ton' holds a control, bidi or zero-width "
                                  "character or a backslash (shown escaped); the overlay folder is refused unread")
                "," DIAG_NO_FIELD("overlay_unsafe_name", "back\\\\\\\\slash",
                                  "overlay folder name 'back\\\\\\\\slash' holds a control, bidi or zero-width "
                                  "character or a backslash (shown escaped); the overlay folder is refused unread")
                "," DIAG_NO_FIELD("overlay_not_utf8", "bad\\\\xff",
                                  "overlay folder name 'bad\\\\xff' is not valid UTF-8") "]",
                "[\"acme-notes\"]");
    /* nothing raw anywhere in the result */
    CHECK(load(base, "unsafe-names", &diags, &ids) == GSD_STATUS_OK);
    CHECK(diags.ptr != NULL && strchr((const char *)diags.ptr, '\x1b') == NULL);
    CHECK(diags.ptr != NULL && strstr((const char *)diags.ptr, "\xe2\x80\xae") == NULL);
    gsd_bytes_free(&diags);
    gsd_bytes_free(&ids);
}

/* The unreadable tree: capability.json of one folder and a fragment of another are mode 000. */
static const char *const UNREADABLE_DIAGNOSTICS =
    "[{\"code\":\"overlay_unreadable\",\"severity\":\"error\",\"capabilityId\":\"acme-locked-fragment\","
    "\"field\":\"fragments/a.md\",\"message\":\"'acme-locked-fragment/fragments/a.md' cannot be read: "
    "Permission denied (os error 13)\",\"detail\":{\"osError\":13}},"
    "{\"code\":\"overlay_unreadable\",\"severity\":\"error\",\"capabilityId\":\"acme-locked-manifest\","
    "\"field\":\"capability.json\",\"message\":\"'acme-locked-manifest/capability.json' cannot be read: "
    "Permission denied (os error 13)\",\"detail\":{\"osError\":13}}]";

/* Loads the unreadable tree; 0 when the diagnostics and admitted ids are the expected ones. */
static int unreadable_outcome(gsd_registry *base) {
    gsd_registry *registry = NULL;
    gsd_bytes diags = {NULL, 0}, ids = {NULL, 0};
    const char *dir = at("unreadable");
    int outcome = 2;
    if (gsd_registry_with_overlay_dir(base, STR(dir), &registry, NULL) != GSD_STATUS_OK) {
        fprintf(stderr, "  loading %s failed (is the temporary path searchable by this uid?)\n", dir);
        return outcome;
    }
    if (gsd_registry_diagnostics(registry, &diags, NULL) == GSD_STATUS_OK &&
        gsd_registry_third_party_ids(registry, &ids, NULL) == GSD_STATUS_OK) {
        outcome = bytes_eq(&diags, UNREADABLE_DIAGNOSTICS) && bytes_contain(&diags, "Permission denied") &&
                          bytes_eq(&ids, "[\"acme-ok\"]")
                      ? 0
                      : 1;
        if (outcome != 0) fprintf(stderr, "  [unreadable] diagnostics: %s\n  admitted: %s\n", (char *)diags.ptr, (char *)ids.ptr);
    }
    gsd_bytes_free(&diags);
    gsd_bytes_free(&ids);
    gsd_registry_free(registry);
    return outcome;
}

/*
 * Unreadable files refuse their folder with overlay_unreadable and the OS error. Root reads
 * through mode 000, so as root the load runs in a child that dropped to uid/gid 65534 and
 * reports through its exit status; otherwise it runs here, after proving the mode bits do
 * stop this process. Either way the case must be exercised: it fails, never skips.
 */
static void test_unreadable_files(gsd_registry *base) {
    char manifest[2048];
    make_dir("unreadable");
    make_dir("unreadable/acme-locked-manifest");
    snprintf(manifest, sizeof manifest, FEATURE, "acme-locked-manifest");
    write_text("unreadable/acme-locked-manifest/capability.json", manifest);
    write_feature("unreadable", "acme-locked-fragment");
    make_dir("unreadable/acme-locked-fragment/fragments");
    write_text("unreadable/acme-locked-fragment/fragments/a.md", "hidden");
    write_feature("unreadable", "acme-ok");
    CHECK(chmod(at("unreadable/acme-locked-manifest/capability.json"), 0) == 0);
    CHECK(chmod(at("unreadable/acme-locked-fragment/fragments/a.md"), 0) == 0);
    if (geteuid() == 0) {
        pid_t child;
        int status = -1;
        CHECK(chmod(base_dir, 0755) == 0); /* mkdtemp made it 0700: let uid 65534 in */
        fflush(NULL);
        child = fork();
        CHECK(child >= 0);
        if (child == 0) {
            int outcome = 3;
            if (setgroups(0, NULL) == 0 && setgid(65534) == 0 && setuid(65534) == 0 && geteuid() == 65534)
                outcome = unreadable_outcome(base);
            else
                fprintf(stderr, "  could not drop to uid 65534: %s\n", strerror(errno));
            gsd_registry_free(base);
            exit(outcome);
        }
        if (child > 0) CHECK(waitpid(child, &status, 0) == child);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            fprintf(stderr, "  the uid-65534 child reported %d (1: wrong diagnostics, 2: load failed, 3: uid not dropped)\n",
                    WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    } else {
        int fd = open(at("unreadable/acme-locked-manifest/capability.json"), O_RDONLY);
        CHECK(fd < 0 && errno == EACCES);
        if (fd >= 0) {
            fprintf(stderr, "  chmod 000 does not stop this user from reading, and it is not root so it cannot "
                            "drop to another uid: the unreadable case cannot be exercised\n");
            close(fd);
        }
        CHECK(unreadable_outcome(base) == 0);
    }
    CHECK(chmod(at("unreadable/acme-locked-manifest/capability.json"), 0644) == 0);
    CHECK(chmod(at("unreadable/acme-locked-fragment/fragments/a.md"), 0644) == 0);
}

/* ---- Byte bounds: 32 MiB per folder, 256 MiB per root (the contract's numbers, written
 * out here rather than taken from the library). */
#define MIB (1024L * 1024L)

/* A sparse file of `size` bytes: no disk blocks, reads as zeros. */
static void sparse(const char *rel, off_t size) {
    write_text(rel, "");
    CHECK(truncate(at(rel), size) == 0);
}

/*
 * Opens seen under watched directories: inotify IN_OPEN on each directory of a folder
 * reports every file opened in it (directories opened for listing are left out).
 */
typedef struct {
    int fd;
    int wd[4];
    int count;
} open_watch;

static void watch_start(open_watch *w) {
#ifdef __linux__
    w->fd = inotify_init1(IN_NONBLOCK);
    CHECK(w->fd >= 0);
#else
    w->fd = -1;
#endif
    w->count = 0;
}

static int watch_add(open_watch *w, const char *rel) {
#ifdef __linux__
    int wd = w->fd < 0 ? -1 : inotify_add_watch(w->fd, at(rel), IN_OPEN);
    CHECK(wd >= 0);
    if (w->count < 4) w->wd[w->count++] = wd;
    return wd;
#else
    (void)w;
    (void)rel;
    return -1;
#endif
}

/* Files opened under watch `wd` since the watch began (drains the queue into `counts`). */
static void watch_drain(open_watch *w, int counts[4]) {
    for (int i = 0; i < 4; i++) counts[i] = 0;
#ifdef __linux__
    {
        char buffer[64 * 1024] __attribute__((aligned(__alignof__(struct inotify_event))));
        ssize_t n;
        while (w->fd >= 0 && (n = read(w->fd, buffer, sizeof buffer)) > 0) {
            for (char *p = buffer; p < buffer + n;) {
                const struct inotify_event *event = (const struct inotify_event *)(void *)p;
                if ((event->mask & IN_OPEN) && !(event->mask & IN_ISDIR) && event->len > 0)
                    for (int i = 0; i < w->count; i++)
                        if (w->wd[i] == event->wd) counts[i]++;
                p += sizeof(struct inotify_event) + event->len;
            }
        }
        if (w->fd >= 0) close(w->fd);
    }
#else
    (void)w;
    fprintf(stderr, "  (no inotify here: the never-opened checks are not made)\n");
#endif
}

static void test_folder_byte_bound(gsd_registry *base) {
    char rel[256];
    open_watch watch;
    int opened[4];
    make_dir("too-large");
    /* the manifest plus 8 + 8 + 8 + (8 MiB - manifest): exactly 32 MiB, each file within
     * the core's 8 MiB bound (a valid overlay); one byte more in the other folder */
    for (int over = 0; over <= 1; over++) {
        const char *id = over ? "acme-over" : "acme-exact";
        off_t manifest_size = bare_feature("too-large", id);
        snprintf(rel, sizeof rel, "too-large/%s/big", id);
        make_dir(rel);
        for (char f = 'a'; f <= 'c'; f++) {
            snprintf(rel, sizeof rel, "too-large/%s/big/%c.md", id, f);
            sparse(rel, 8 * MIB);
        }
        snprintf(rel, sizeof rel, "too-large/%s/big/d.md", id);
        sparse(rel, 8 * MIB - manifest_size + over);
    }
    watch_start(&watch);
    watch_add(&watch, "too-large/acme-over");
    watch_add(&watch, "too-large/acme-over/big");
    watch_add(&watch, "too-large/acme-exact");
    watch_add(&watch, "too-large/acme-exact/big");
    expect_load(base, "too-large",
                "[" DIAG_NO_FIELD("overlay_too_large", "acme-over",
                                  "overlay folder 'acme-over' holds 33554433 bytes, more than the 33554432 bytes "
                                  "allowed per folder; the overlay folder is refused unread") "]",
                "[\"acme-exact\"]");
#ifdef __linux__
    watch_drain(&watch, opened);
    /* never opened: no file of the refused folder; the four big files and the manifest
     * of the admitted one */
    CHECK(opened[0] == 0 && opened[1] == 0);
    CHECK(opened[2] == 1 && opened[3] == 4);
    if (opened[0] + opened[1] != 0 || opened[2] != 1 || opened[3] != 4)
        fprintf(stderr, "  opens seen: over %d+%d, exact %d+%d\n", opened[0], opened[1], opened[2], opened[3]);
#else
    watch_drain(&watch, opened);
#endif
}

/* A file over the core's 8 MiB bound is read to one byte past it, and the folder is
 * refused with the file's size (from fstat), not the bytes read. */
static void test_file_over_the_core_bound_names_its_size(gsd_registry *base) {
    make_dir("over-bound");
    make_dir("over-bound/acme-big-manifest");
    sparse("over-bound/acme-big-manifest/capability.json", 9 * MIB);
    bare_feature("over-bound", "acme-big-fragment");
    sparse("over-bound/acme-big-fragment/big.md", 9 * MIB + 5);
    write_feature("over-bound", "acme-small");
    expect_load(base, "over-bound",
                "[" DIAG("overlay_fragment_too_large", "acme-big-fragment", "fragment.path",
                         "file \\\"big.md\\\" is 9437189 bytes, over the 8388608-byte limit") ","
                DIAG_NO_FIELD("overlay_manifest_too_large", "acme-big-manifest",
                              "capability.json is 9437184 bytes, over the 8388608-byte limit") "]",
                "[\"acme-small\"]");
}

static void test_root_byte_budget(gsd_registry *base) {
    char rel[256], needle[256];
    open_watch watch;
    int opened[4];
    gsd_bytes diags = {NULL, 0}, ids = {NULL, 0};
    const char *first = NULL;
    make_dir("root-budget");
    /* nine folders of exactly 30 MiB (a manifest and one sparse file), created last name
     * first: 8 x 30 = 240 MiB fit, the ninth by name does not */
    for (int i = 9; i >= 1; i--) {
        char id[32];
        off_t manifest_size;
        snprintf(id, sizeof id, "acme-big-%d", i);
        manifest_size = bare_feature("root-budget", id);
        snprintf(rel, sizeof rel, "root-budget/%s/big.md", id);
        sparse(rel, 30 * MIB - manifest_size);
    }
    /* a small folder after them still fits in what is left */
    write_feature("root-budget", "acme-small");
    watch_start(&watch);
    watch_add(&watch, "root-budget/acme-big-9");
    watch_add(&watch, "root-budget/acme-big-8");
    CHECK(load(base, "root-budget", &diags, &ids) == GSD_STATUS_OK);
    first = diags.ptr == NULL ? NULL : strstr((const char *)diags.ptr, "overlay_too_large");
    /* exactly one overlay_too_large: the ninth, for the root budget */
    CHECK(first != NULL && strstr(first + 1, "overlay_too_large") == NULL);
    CHECK(bytes_contain(&diags, DIAG_NO_FIELD("overlay_too_large", "acme-big-9",
                                              "overlay folder 'acme-big-9' holds 31457280 bytes, more than the "
                                              "16777216 bytes left of the 268435456 bytes allowed per overlay root "
                                              "(the root budget is spent); the overlay folder is refused unread")));
    /* the first eight were read: the core rejects their 30 MiB file over its own bound */
    for (int i = 1; i <= 8; i++) {
        snprintf(needle, sizeof needle,
                 "\"code\":\"overlay_fragment_too_large\",\"severity\":\"error\",\"capabilityId\":\"acme-big-%d\"", i);
        CHECK(bytes_contain(&diags, needle));
    }
    CHECK(bytes_eq(&ids, "[\"acme-small\"]"));
    if (!bytes_eq(&ids, "[\"acme-small\"]")) fprintf(stderr, "  admitted: %s\n", (char *)ids.ptr);
    watch_drain(&watch, opened);
#ifdef __linux__
    CHECK(opened[0] == 0); /* the ninth: never opened */
    CHECK(opened[1] == 2); /* the eighth: manifest and big.md */
#endif
    gsd_bytes_free(&diags);
    gsd_bytes_free(&ids);
}

static void test_too_many_files_and_too_deep(gsd_registry *base) {
    char rel[256];
    make_dir("many");
    write_feature("many", "acme-notes");
    make_dir("many/acme-notes/f");
    /* capability.json + README.md + 1023 = 1025 files */
    int written = 0;
    for (int i = 0; i < 1023; i++) {
        snprintf(rel, sizeof rel, "many/acme-notes/f/%04d.md", i);
        written += write_quiet(rel, "x");
    }
    CHECK(written == 1023);
    expect_load(base, "many",
                "[" DIAG_NO_FIELD("overlay_too_many_files", "acme-notes",
                                  "overlay folder 'acme-notes' holds more than 1024 files") "]",
                "[]");
    /* exactly 1024 files is fine */
    snprintf(rel, sizeof rel, "many/acme-notes/f/%04d.md", 1022);
    CHECK(remove(at(rel)) == 0);
    expect_load(base, "many", "[]", "[\"acme-notes\"]");

    make_dir("deep");
    write_feature("deep", "acme-notes");
    strcpy(rel, "deep/acme-notes");
    for (int depth = 1; depth <= 16; depth++) {
        strcat(rel, "/d");
        make_dir(rel);
    }
    strcat(rel, "/x.md"); /* 17 components below the folder */
    write_text(rel, "x");
    expect_load(base, "deep",
                "[" DIAG("overlay_too_many_files", "acme-notes", "d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/x.md",
                         "'acme-notes/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/x.md' nests deeper than 16 levels; the "
                         "overlay folder is refused") "]",
                "[]");
}

/* Builds the same mixed tree in the given folder order. */
static void build_mixed(const char *root, const int *order) {
    char rel[256];
    make_dir(root);
    for (int i = 0; i < 4; i++) {
        switch (order[i]) {
        case 0:
            write_feature(root, "acme-a");
            break;
        case 1:
            snprintf(rel, sizeof rel, "%s/acme-b", root);
            make_link("../outside/acme-link", rel);
            break;
        case 2:
            write_feature(root, "acme-c");
            snprintf(rel, sizeof rel, "%s/acme-c/zz.md", root);
            write_text(rel, "z");
            snprintf(rel, sizeof rel, "%s/acme-c/aa.md", root);
            make_fifo(rel);
            break;
        default:
            snprintf(rel, sizeof rel, "%s/acme-d", root);
            make_dir(rel);
            snprintf(rel, sizeof rel, "%s/acme-d/notes.md", root);
            write_text(rel, "n");
            break;
        }
    }
}

static void test_creation_order_does_not_matter(gsd_registry *base) {
    static const int forward[4] = {0, 1, 2, 3};
    static const int backward[4] = {3, 2, 1, 0};
    gsd_bytes diags_a = {NULL, 0}, ids_a = {NULL, 0}, diags_b = {NULL, 0}, ids_b = {NULL, 0};
    build_mixed("order-a", forward);
    build_mixed("order-b", backward);
    CHECK(load(base, "order-a", &diags_a, &ids_a) == GSD_STATUS_OK);
    CHECK(load(base, "order-b", &diags_b, &ids_b) == GSD_STATUS_OK);
    CHECK(diags_a.ptr != NULL && diags_b.ptr != NULL && diags_a.len == diags_b.len &&
          memcmp(diags_a.ptr, diags_b.ptr, diags_a.len) == 0);
    CHECK(bytes_eq(&ids_a, "[\"acme-a\"]"));
    CHECK(bytes_eq(&ids_b, "[\"acme-a\"]"));
    /* folders in name order: b (symlink), c (FIFO at aa.md, before zz.md), d (no manifest) */
    CHECK(bytes_eq(&diags_a,
                   "[" DIAG_NO_FIELD("overlay_symlink_refused", "acme-b",
                                     "overlay folder 'acme-b' is a symbolic link; links are never followed") ","
                   DIAG("overlay_not_regular_file", "acme-c", "aa.md",
                        "'acme-c/aa.md' is neither a regular file nor a directory; the overlay folder is "
                        "refused") ","
                   DIAG("overlay_manifest_missing", "acme-d", "capability.json",
                        "overlay folder 'acme-d' has no capability.json") "]"));
    gsd_bytes_free(&diags_a);
    gsd_bytes_free(&ids_a);
    gsd_bytes_free(&diags_b);
    gsd_bytes_free(&ids_b);
}

static void test_edge_diagnostics_come_first(gsd_registry *base) {
    gsd_bytes diags = {NULL, 0}, ids = {NULL, 0};
    const char *edge, *core;
    char manifest[2048];
    make_dir("mixed-origin");
    /* admitted by the edge, rejected by the core: folder name differs from the id */
    make_dir("mixed-origin/acme-a");
    snprintf(manifest, sizeof manifest, FEATURE, "acme-other");
    write_text("mixed-origin/acme-a/capability.json", manifest);
    make_link("../outside/acme-link", "mixed-origin/acme-z");
    CHECK(load(base, "mixed-origin", &diags, &ids) == GSD_STATUS_OK);
    edge = diags.ptr == NULL ? NULL : strstr((const char *)diags.ptr, "\"code\":\"overlay_symlink_refused\"");
    core = diags.ptr == NULL ? NULL : strstr((const char *)diags.ptr, "\"code\":\"overlay_rejected\"");
    CHECK(edge != NULL && core != NULL && edge < core);
    CHECK(bytes_contain(&diags, "\"code\":\"id_mismatch\""));
    CHECK(bytes_eq(&ids, "[]"));
    gsd_bytes_free(&diags);
    gsd_bytes_free(&ids);
}

static void expect_root_failure(gsd_registry *base, const char *dir, size_t len, gsd_status status,
                                const char *name, const char *message_start) {
    gsd_registry *out = (gsd_registry *)&sentinel_byte;
    gsd_error *err = NULL;
    gsd_status got = gsd_registry_with_overlay_dir(base, dir, len, &out, &err);
    CHECK_ERROR(got, err, status, name);
    CHECK(out == (gsd_registry *)&sentinel_byte);
    /* The argument at fault is the field: `base` when it is NULL, else `dir`. */
    CHECK(str_eq(gsd_error_field(err), base == NULL ? "base" : "dir"));
    if (message_start != NULL) {
        const char *message = gsd_error_message(err);
        CHECK(message != NULL && strncmp(message, message_start, strlen(message_start)) == 0);
        if (message != NULL && strncmp(message, message_start, strlen(message_start)) != 0)
            fprintf(stderr, "  message was: %s\n", message);
    }
    gsd_error_free(err);
}

static void test_root_failures(gsd_registry *base) {
    char expected[1200];
    const char *valid = at("valid");
    gsd_registry *unused = NULL;
    gsd_error *err = NULL;

    make_link("valid", "root-link");
    snprintf(expected, sizeof expected, "dir '%s' is a symbolic link", at("root-link"));
    expect_root_failure(base, STR(at("root-link")), GSD_STATUS_INVALID_ARGUMENT, "INVALID_ARGUMENT", expected);
    /* a trailing `/` or `/.` names the link's target; the link is refused all the same */
    {
        static const char *const suffixes[] = {"/", "/.", "//", "/./", "/.//.", "/././"};
        for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
            char dir[1100];
            snprintf(dir, sizeof dir, "%s%s", at("root-link"), suffixes[i]);
            snprintf(expected, sizeof expected,
                     "dir '%s' is a symbolic link; the overlay root must be a real directory", dir);
            expect_root_failure(base, STR(dir), GSD_STATUS_INVALID_ARGUMENT, "INVALID_ARGUMENT", expected);
        }
    }
    /* the same spellings of a real directory load it (`..` is kept: link/.. is a real dir) */
    {
        static const char *const spellings[] = {"valid/", "valid/.", "valid/.//./", "valid/acme-notes/.."};
        for (size_t i = 0; i < sizeof spellings / sizeof spellings[0]; i++) {
            gsd_bytes diags = {NULL, 0}, ids = {NULL, 0};
            CHECK(load(base, spellings[i], &diags, &ids) == GSD_STATUS_OK);
            CHECK(bytes_eq(&diags, "[]"));
            CHECK(bytes_eq(&ids, "[\"acme-notes\"]"));
            gsd_bytes_free(&diags);
            gsd_bytes_free(&ids);
        }
    }
    write_text("root-file", "x");
    snprintf(expected, sizeof expected, "dir '%s' is not a directory", at("root-file"));
    expect_root_failure(base, STR(at("root-file")), GSD_STATUS_INVALID_ARGUMENT, "INVALID_ARGUMENT", expected);
    snprintf(expected, sizeof expected, "dir '%s' cannot be inspected", at("missing"));
    expect_root_failure(base, STR(at("missing")), GSD_STATUS_INVALID_ARGUMENT, "INVALID_ARGUMENT", expected);
    expect_root_failure(base, "a\0b", 3, GSD_STATUS_INVALID_ARGUMENT, "INVALID_ARGUMENT",
                        "dir must be a path without NUL bytes, got one at byte offset 1 of 3");
    expect_root_failure(base, "", 0, GSD_STATUS_INVALID_ARGUMENT, "INVALID_ARGUMENT",
                        "dir must be a non-empty path, got an empty one");
    expect_root_failure(base, NULL, 0, GSD_STATUS_NULL_ARGUMENT, "NULL_ARGUMENT", "dir must not be NULL");
    expect_root_failure(NULL, STR(valid), GSD_STATUS_NULL_ARGUMENT, "NULL_ARGUMENT", "base must not be NULL");
    CHECK(gsd_registry_with_overlay_dir(base, STR(valid), NULL, &err) == GSD_STATUS_NULL_ARGUMENT);
    CHECK_MESSAGE(err, "out_registry must not be NULL");
    CHECK(str_eq(gsd_error_field(err), "out_registry"));
    gsd_error_free(err);
    /* out_error may be NULL */
    CHECK(gsd_registry_with_overlay_dir(base, STR(at("missing")), &unused, NULL) == GSD_STATUS_INVALID_ARGUMENT);
    CHECK(unused == NULL);
}

static void test_layering_keeps_edge_diagnostics(gsd_registry *base) {
    gsd_registry *loaded = NULL, *layered = NULL;
    gsd_bytes diags = {NULL, 0}, ids = {NULL, 0};
    CHECK(gsd_registry_with_overlay_dir(base, STR(at("order-a")), &loaded, NULL) == GSD_STATUS_OK);
    if (loaded == NULL) return;
    /* a registry built on it keeps the edge findings and the admitted overlay */
    CHECK(gsd_registry_with_overlays(loaded, STR("[]"), &layered, NULL) == GSD_STATUS_OK);
    CHECK(gsd_registry_diagnostics(layered, &diags, NULL) == GSD_STATUS_OK);
    CHECK(bytes_contain(&diags, "\"capabilityId\":\"acme-b\""));
    CHECK(gsd_registry_third_party_ids(layered, &ids, NULL) == GSD_STATUS_OK);
    CHECK(bytes_eq(&ids, "[\"acme-a\"]"));
    gsd_bytes_free(&ids);
    CHECK(gsd_registry_third_party_ids(base, &ids, NULL) == GSD_STATUS_OK);
    CHECK(bytes_eq(&ids, "[]"));
    gsd_bytes_free(&ids);
    gsd_bytes_free(&diags);
    gsd_registry_free(layered);
    gsd_registry_free(loaded);
}

int main(void) {
    gsd_registry *base = NULL;
    const char *tmp = getenv("TMPDIR");
    alarm(120); /* a FIFO opened by mistake would block forever: fail loudly instead */
    snprintf(base_dir, sizeof base_dir, "%s/gsd-overlay-dir-XXXXXX", tmp != NULL && *tmp ? tmp : "/tmp");
    if (mkdtemp(base_dir) == NULL) {
        CHECK(!"mkdtemp");
        return CHECK_SUMMARY();
    }
    if (gsd_registry_first_party(&base, NULL) != GSD_STATUS_OK) {
        CHECK(!"first-party registry");
        goto cleanup;
    }
    test_valid_overlay_is_admitted(base);
    test_symlinked_folder_is_refused(base);
    test_symlinked_manifest_is_refused(base);
    test_symlinked_fragment_is_not_inlined(base);
    test_symlinked_directory_is_refused(base);
    test_fifos_are_never_opened(base);
    test_directory_named_manifest(base);
    test_missing_manifest(base);
    test_non_utf8(base);
    test_unsafe_folder_names(base);
    test_unreadable_files(base);
    test_too_many_files_and_too_deep(base);
    test_creation_order_does_not_matter(base);
    test_edge_diagnostics_come_first(base);
    test_root_failures(base);
    test_layering_keeps_edge_diagnostics(base);
    test_folder_byte_bound(base);
    test_root_byte_budget(base);
    test_file_over_the_core_bound_names_its_size(base);
cleanup:
    gsd_registry_free(base);
    CHECK(nftw(base_dir, remove_one, 16, FTW_DEPTH | FTW_PHYS) == 0);
    return CHECK_SUMMARY();
}
