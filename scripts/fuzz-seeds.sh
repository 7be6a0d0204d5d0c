#!/usr/bin/env bash
# Writes the hand-made starting inputs of every fuzz target into Tests/Fuzz/Corpus/<target>/.
# Each is small and valid (or deliberately almost valid), so libFuzzer starts from real formats
# instead of discovering `<rss>` or a PNG signature byte by byte. Re-running overwrites the same
# files; inputs libFuzzer found and kept (named by their SHA-1) are left alone.
#
# Inputs of the targets that read a header first (see Fuzz/Sources/*/main.swift) start with it:
# icy: two bytes of icy-metaint - 1 and one byte of chunk size - 1; playlist, image, decoder: one
# mode byte; mpd: a settings byte (bit 0 password, bits 1-7 chunk size - 1) and a steering byte.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
corpus="$root/Tests/Fuzz/Corpus"
mkdir -p "$corpus"/{icy,playlist,rss,opml,session,image,decoder,mpd}
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

python3 - "$corpus" <<'PY'
import sys, os
corpus = sys.argv[1]

def write(target, name, data):
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(corpus, target, name), "wb") as f:
        f.write(data)

# ICY: metaint 16 (header 0x00 0x0f), chunk sizes 1 and 5; audio, a length byte, a padded block.
def block(text):
    raw = text.encode() if isinstance(text, str) else text
    length = (len(raw) + 15) // 16
    return bytes([length]) + raw + b"\0" * (length * 16 - len(raw))
audio = bytes(range(16))
stream = audio + block("StreamTitle='Artist - Title';StreamUrl='http://radio.example/';") + audio + b"\0" + audio \
    + block("StreamTitle='Guns N' Roses - Sweet Child o' Mine';") + audio
write("icy", "title-and-url", b"\x00\x0f\x00" + stream)
write("icy", "chunked", b"\x00\x0f\x04" + stream)
write("icy", "latin1-title", b"\x00\x0f\x02" + audio + block(b"StreamTitle='Caf\xe9 del Mar';") + audio)
write("icy", "cut-inside-block", b"\x00\x0f\x00" + audio + bytes([3]) + b"StreamTitle='cut")

# Playlists: mode bit 0 = kind (0 pls, 1 m3u); bits 1-2 = source (0 none, 1 network, 2 local file).
write("playlist", "pls", b"\x02[playlist]\nNumberOfEntries=2\nFile1=http://radio.example:8000/live\nTitle1=Radio One\n"
      b"File2=https://backup.example/live.mp3\nTitle2=Backup\nLength1=-1\nVersion=2\n")
write("playlist", "m3u-extended", b"\x03#EXTM3U\n#EXTINF:-1 tvg-name=\"a,b\",Radio \xc3\xa9t\xc3\xa9\nhttp://radio.example/stream\n"
      b"#EXTINF:-1,Relative\nstream2.mp3\n")
write("playlist", "m3u-local", b"\x05/music/one.mp3\nsubdir/two.flac\nfile:///music/three.ogg\n")
write("playlist", "hls", b"\x03#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=128000\nlow/index.m3u8\n")
write("playlist", "html", b"\x02<!DOCTYPE html><html><body>login</body></html>")

# RSS
write("rss", "podcast.xml", """<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="https://podcastindex.org/namespace/1.0" xmlns:content="http://purl.org/rss/1.0/modules/content/">
<channel>
<title>Example Cast</title>
<link>https://podcast.example/</link>
<description><![CDATA[<p>Talk &amp; <b>music</b></p><script>x()</script>]]></description>
<itunes:author>Jane Doe</itunes:author>
<managingEditor>jane@example.com (Jane Doe)</managingEditor>
<itunes:image href="https://podcast.example/cover.png"/>
<item>
<title>Episode 2</title>
<guid isPermaLink="false">ep-2</guid>
<pubDate>Tue, 10 Jun 2025 04:00:00 +0000</pubDate>
<itunes:duration>1:02:03</itunes:duration>
<enclosure url="/media/ep2.mp3" length="12345" type="audio/mpeg"/>
<podcast:chapters url="https://podcast.example/ep2.json" type="application/json+chapters"/>
<content:encoded>&lt;p&gt;Line one&lt;br&gt;Line &#x41; &nbsp;two&lt;/p&gt;</content:encoded>
</item>
<item>
<title>Episode 1</title>
<pubDate>2025-06-03T04:00:00Z</pubDate>
<itunes:duration>3600</itunes:duration>
<enclosure url="https://podcast.example/ep1.m4a" length="1.2e6" type="Audio/MP4"/>
<itunes:summary>Plain text summary</itunes:summary>
</item>
</channel>
</rss>
""")
write("rss", "latin1.xml", b'<?xml version="1.0" encoding="ISO-8859-1"?><rss version="2.0"><channel><title>Caf\xe9</title>'
      b'<item><title>\xe9t\xe9</title><enclosure url="http://a.example/x.mp3"/></item></channel></rss>')
write("rss", "atom.xml", '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>A</title></feed>')
write("rss", "cut.xml", '<rss version="2.0"><channel><title>T</title><item><title>One</title><guid>1</guid></item><item><title>Tw')

# OPML
write("opml", "subscriptions.opml", """<?xml version="1.0" encoding="UTF-8"?>
<opml version="2.0"><head><title>Podcasts</title></head><body>
<outline text="Folder">
  <outline type="rss" text="Example Cast" xmlUrl="https://podcast.example/feed.xml"/>
  <outline type="rss" title="Other &amp; Co" text="x" XMLURL="http://other.example/rss"/>
</outline>
<outline type="rss" text="Duplicate" xmlUrl="HTTPS://PODCAST.example/feed.xml"/>
<outline type="rss" text="Bad scheme" xmlUrl="file:///etc/passwd"/>
</body></opml>
""")
write("opml", "empty.opml", '<opml version="1.0"><body/></opml>')

# Session files
write("session", "meditation.json", """{
  "name": "Morning meditation",
  "crossfade": 10,
  "curve": "linear",
  "stages": [
    { "title": "Arrival", "source": "arrival.ogg", "loops": 2, "crossfade": 8, "curve": "equal-power", "volume": 0.9 },
    { "title": "Breath", "source": "breath.opus", "duration": 600, "loopCrossfade": 2, "curve": "raised-cosine" },
    { "title": "Return", "source": "https://example.org/return.mp3", "curve": "log" }
  ]
}
""")
write("session", "minimal.json", '{"stages":[{"source":"a.wav"}]}')
write("session", "unknown-key.json", '{"stages":[{"source":"a.wav","crossfde":3}]}')

# MPD: what a client sends, after the settings byte and the steering byte.
write("mpd", "status-ping", b"\x00\x00status\nping\ncurrentsong\nplay 3\n")
write("mpd", "password", b"\x01\x10password wrong\nstatus\npassword secret\nstatus\ncommands\nnotcommands\n")
write("mpd", "command-list-ok", b"\x0e\x05command_list_ok_begin\nstatus\nplay 1\nadd \"a \\\"b\\\" c\"\ncommand_list_end\n")
write("mpd", "nested-list", b"\x02\x00command_list_begin\nping\ncommand_list_begin\nping\ncommand_list_end\nping\n")
write("mpd", "idle", b"\x00\x81idle\nnoidle\nidle player mixer\nnoidle\nidle\n")
write("mpd", "quoting", b"\x06\x00find \"(Artist == \\\"foo\\\\'bar\\\\\\\"\\\")\"\nadd \"open\nadd a\"b\nadd \"x\"y\n")
write("mpd", "not-mpd", b"\x00\x00GET / HTTP/1.1\r\nHost: x\r\n\r\n")
write("mpd", "close", b"\x00\x03ping\nclose\nstatus\n")
PY

# Pictures and sounds, made by FFmpeg. The mode byte 0x00 picks the kind the bytes announce
# (image) or a live source without a hint (decoder); 0x01 a seekable source.
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }
ff -f lavfi -i "color=c=0x3366cc:s=4x3" -frames:v 1 -pix_fmt rgb24 "$tmp/rgb.png"
ff -f lavfi -i "color=c=0x3366cc:s=5x2" -frames:v 1 -pix_fmt pal8 "$tmp/pal.png"
ff -f lavfi -i "color=c=gray:s=3x3" -frames:v 1 -pix_fmt gray16be "$tmp/gray16.png"
ff -f lavfi -i "testsrc=s=16x16" -frames:v 1 -pix_fmt yuvj420p -q:v 10 "$tmp/small.jpg"
ff -f lavfi -i "testsrc=s=8x8" -frames:v 1 -pix_fmt gray -q:v 10 "$tmp/gray.jpg"
for f in rgb.png pal.png gray16.png small.jpg gray.jpg; do
    { printf '\x00'; cat "$tmp/$f"; } > "$corpus/image/$f"
done

ff -f lavfi -i "sine=frequency=440:sample_rate=8000:duration=0.05" -ac 1 -c:a pcm_s16le "$tmp/tone.wav"
ff -f lavfi -i "sine=frequency=440:sample_rate=8000:duration=0.1" -ac 1 -c:a libmp3lame -b:a 8k "$tmp/tone.mp3"
ff -f lavfi -i "sine=frequency=440:sample_rate=8000:duration=0.1" -ac 1 -c:a aac -b:a 8k -f adts "$tmp/tone.aac"
ff -f lavfi -i "sine=frequency=440:sample_rate=8000:duration=0.1" -ac 1 -c:a flac "$tmp/tone.flac"
ff -f lavfi -i "sine=frequency=440:sample_rate=8000:duration=0.1" -ac 1 -c:a libvorbis "$tmp/tone.ogg" 2>/dev/null \
    || ff -f lavfi -i "sine=frequency=440:sample_rate=8000:duration=0.1" -ac 1 -c:a vorbis -strict -2 "$tmp/tone.ogg"
{ printf '\x00'; cat "$tmp/tone.wav"; } > "$corpus/decoder/tone-live.wav"
{ printf '\x01'; cat "$tmp/tone.wav"; } > "$corpus/decoder/tone-seekable.wav"
{ printf '\x00'; cat "$tmp/tone.mp3"; } > "$corpus/decoder/tone-live.mp3"
{ printf '\x03'; cat "$tmp/tone.mp3"; } > "$corpus/decoder/tone-seekable-hint.mp3"
{ printf '\x04'; cat "$tmp/tone.aac"; } > "$corpus/decoder/tone.aac"
{ printf '\x01'; cat "$tmp/tone.flac"; } > "$corpus/decoder/tone.flac"
{ printf '\x01'; cat "$tmp/tone.ogg"; } > "$corpus/decoder/tone.ogg"
echo "fuzz-seeds: wrote $(find "$corpus" -type f | wc -l) inputs under Tests/Fuzz/Corpus"
