#!/usr/bin/env bash
# Everything a package user follows from the nupkg names a tree that exists for its version:
#   a release (x.y.z) links to the tag vx.y.z that the release step creates; a prerelease (x.y.z-dev.…) to main.
# Checked: the rule help links compiled into the analyzers, every repository link of the package readme, its
# install line, and the release notes (this version's CHANGELOG section, plain text, and the link to the file).
# Usage: .ci/links-check.sh <folder-with-nupkg> [--allow-unreleased]
set -euo pipefail
nupkg=$(ls "$1"/TplPractices.Analyzers.*.nupkg | head -n 1)
version=$(sed -E 's/.*TplPractices\.Analyzers\.(.*)\.nupkg/\1/' <<<"$nupkg")
prefix=${version%%-*}
if [ "$version" == "$prefix" ]; then ref="v$version"; else ref="main"; fi
nuspec=$(unzip -p "$nupkg" TplPractices.Analyzers.nuspec)
repo=$(sed -nE 's|.*<projectUrl>(.*)</projectUrl>.*|\1|p' <<<"$nuspec")
fail() { echo "links: $*"; exit 1; }

help=$(unzip -p "$nupkg" analyzers/dotnet/cs/TplPractices.Analyzers.dll | strings | grep -oE "https://github\.com/[^ \"]+/blob/[^/ \"]+" | sort -u)
[ "$help" == "$repo/blob/$ref" ] || fail "the help links of $version name '$help', not $repo/blob/$ref"

readme=$(unzip -p "$nupkg" README.md)
refs=$(grep -oE "$repo/blob/[^/)]+" <<<"$readme" | sort -u)
[ "$refs" == "$repo/blob/$ref" ] || fail "the package readme of $version links to '$refs', not $repo/blob/$ref"
grep -qF "Version=\"$version\"" <<<"$readme" || fail "the package readme does not install $version"

grep -qE "<releaseNotes>$prefix \(" <<<"$nuspec" || fail "the release notes do not begin with CHANGELOG.md's heading for $prefix"
grep -qE "<releaseNotes>[^<]*(\*\*|\]\()" <<<"$nuspec" && fail "the release notes hold markdown"
grep -qF "All releases: $repo/blob/$ref/CHANGELOG.md" <<<"$nuspec" || fail "the release notes do not link to CHANGELOG.md at $ref"
if [ "$ref" != main ] && [ "${2:-}" != --allow-unreleased ]; then
  grep -qE "<releaseNotes>$prefix \(unreleased\)" <<<"$nuspec" && fail "release $version: date its CHANGELOG.md section first"
fi
echo "links: $version links to $repo/blob/$ref (help links, readme, release notes)"
