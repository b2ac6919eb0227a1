//! Properties of the manifest reader, the sanitizer and the resolver over arbitrary input.
#![allow(clippy::needless_pass_by_value)] // Reason: quickcheck hands generated inputs over by value.

use gsd_core::{
    ConfigHomeFacts, Host, Registry, SurfaceFacts, read_install_manifest,
    resolve_installed_surfaces, sanitize_for_render,
};
use quickcheck::{Arbitrary, Gen};
use quickcheck_macros::quickcheck;

/// Text built from JSON punctuation, escapes, controls and characters the sanitizer strips,
/// so that both near-valid manifests and hostile strings come up often.
#[derive(Debug, Clone)]
struct Hostile(String);

impl Arbitrary for Hostile {
    fn arbitrary(g: &mut Gen) -> Self {
        const PIECES: &[&str] = &[
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            "\"",
            "\\",
            "\\u",
            "d800",
            "\"files\"",
            "\"runtime\"",
            "\"manifestVersion\"",
            "\"scope\"",
            "\"local\"",
            "2",
            "-0",
            "1e400",
            "null",
            "true",
            " ",
            "\n",
            "\u{a0}",
            "\u{1b}[31m",
            "\u{1b}]0;",
            "\u{7}",
            "\u{1b}",
            "\u{202e}",
            "\u{301}",
            "\u{200b}",
            "\u{feff}",
            "\u{85}",
            "\u{9b}",
            "skills/gsd-",
            "commands/gsd-",
            "/",
            "a",
            "Z",
            "\u{1F600}",
            "é",
        ];
        let len = usize::arbitrary(g) % 40;
        Hostile((0..len).map(|_| *g.choose(PIECES).unwrap_or(&"")).collect())
    }
}

#[quickcheck]
fn the_reader_never_panics_and_not_installed_means_empty(text: Hostile) -> bool {
    let read = read_install_manifest(Some(&text.0));
    let m = read.manifest;
    // Unusable text: every field empty; usable text: no diagnostic.
    if m.manifest_version.is_none() {
        m.version.is_none() && m.runtime.is_none() && m.scope.is_none() && m.file_keys().is_empty()
    } else {
        read.diagnostics.is_empty()
    }
}

#[quickcheck]
fn sanitized_text_is_clean_and_stable(text: Hostile) -> bool {
    let once = sanitize_for_render(&text.0);
    let clean = !once.chars().any(|c| {
        c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{300}'..='\u{36f}' | '\u{200b}'..='\u{200d}' | '\u{feff}')
    });
    clean && !once.contains("  ") && once.trim() == once && sanitize_for_render(&once) == once
}

/// Arbitrary manifest text never breaks the resolver, and any stem it yields is a kebab
/// token. Such text seldom holds a `files` object, so the stems themselves are exercised by
/// [`file_key_stems_are_kebab_tokens_and_plain_ones_are_read`].
#[quickcheck]
fn stems_are_always_kebab_tokens(text: Hostile) -> bool {
    let registry = Registry::first_party();
    let host = Host::new("/h", "/p");
    let mut facts = SurfaceFacts::default();
    facts.homes.insert(
        "/h/.codebuddy".into(),
        ConfigHomeFacts {
            manifest: Some(text.0.clone()),
            ..ConfigHomeFacts::default()
        },
    );
    let Ok(out) = resolve_installed_surfaces(registry, Some("codebuddy"), &host, &facts) else {
        return false;
    };
    out.surfaces[0]
        .scopes
        .iter()
        .flat_map(|s| &s.stems)
        .all(|stem| {
            stem.bytes()
                .next()
                .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
                && stem
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        })
}

/// File keys of an install manifest built to reach the stem rules: a kind folder and
/// prefix (right, wrong or missing), a body of hostile pieces, and an ending (right,
/// wrong or missing). Arbitrary text almost never forms a manifest with a `files` object,
/// so [`stems_are_always_kebab_tokens`] alone could pass without reading a stem.
#[derive(Debug, Clone)]
struct FileKeys(Vec<String>);

impl Arbitrary for FileKeys {
    fn arbitrary(g: &mut Gen) -> Self {
        const HEADS: &[&str] = &[
            "skills/gsd-",
            "commands/gsd-",
            "skills/",
            "commands/gsd/",
            "agents/gsd-",
            "",
        ];
        const TAILS: &[&str] = &["/SKILL.md", ".md", "", "/x.md", "/SKILL.md/"];
        let n = usize::arbitrary(g) % 8;
        FileKeys(
            (0..n)
                .map(|_| {
                    let body: String = Hostile::arbitrary(g).0.chars().take(6).collect();
                    let head = g.choose(HEADS).unwrap_or(&"");
                    let tail = g.choose(TAILS).unwrap_or(&"");
                    format!("{head}{body}{tail}")
                })
                .collect(),
        )
    }
}

/// Hostile file keys beside one plain skill: every stem read is a kebab token, and the
/// plain one is read (so the property is never vacuous).
#[quickcheck]
fn file_key_stems_are_kebab_tokens_and_plain_ones_are_read(keys: FileKeys, n: u8) -> bool {
    let plain = format!("plain-{n}");
    let mut files = serde_json::Map::new();
    for key in &keys.0 {
        files.insert(key.clone(), serde_json::json!("sha"));
    }
    files.insert(
        format!("skills/gsd-{plain}/SKILL.md"),
        serde_json::json!("sha"),
    );
    let text = serde_json::json!({
        "manifestVersion": 2,
        "runtime": "codebuddy",
        "scope": "global",
        "files": files,
    })
    .to_string();
    let host = Host::new("/h", "/p");
    let mut facts = SurfaceFacts::default();
    facts.homes.insert(
        "/h/.codebuddy".into(),
        ConfigHomeFacts {
            manifest: Some(text),
            ..ConfigHomeFacts::default()
        },
    );
    let Ok(out) =
        resolve_installed_surfaces(Registry::first_party(), Some("codebuddy"), &host, &facts)
    else {
        return false;
    };
    let stems: Vec<&String> = out.surfaces[0]
        .scopes
        .iter()
        .flat_map(|s| &s.stems)
        .collect();
    stems.iter().any(|s| **s == plain)
        && stems.iter().all(|stem| {
            stem.bytes()
                .next()
                .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
                && stem
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        })
}
