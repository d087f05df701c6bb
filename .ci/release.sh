#!/usr/bin/env bash
# Makes a release (docs/releasing.md): packs version VersionPrefix as a release, checks that every link in it names
# the tag vVersionPrefix, and creates that tag at HEAD. With --dry-run (as CI runs it) it packs and checks, but
# accepts an undated CHANGELOG section and a dirty tree, and creates no tag.
# Usage: .ci/release.sh [--dry-run]
set -euo pipefail
cd "$(dirname "$0")/.."
dry=${1:-}
version=$(dotnet msbuild src/Package -getProperty:VersionPrefix)
tag="v$version"
out=artifacts/release
if [ "$dry" != --dry-run ]; then
  [ -z "$(git status --porcelain)" ] || { echo "release: commit or stash your changes first"; exit 1; }
  git rev-parse -q --verify "refs/tags/$tag" >/dev/null && { echo "release: $tag exists; raise VersionPrefix"; exit 1; }
  grep -qE '^TPL[0-9]' src/Analyzers/AnalyzerReleases.Unshipped.md \
    && { echo "release: move the rules of AnalyzerReleases.Unshipped.md under '## Release $version' in Shipped.md"; exit 1; }
fi
rm -rf "$out"
dotnet pack src/Package -c Release -p:TplRelease=true -o "$out"
bash .ci/links-check.sh "$out" ${dry:+--allow-unreleased}
[ -f "$out/TplPractices.Analyzers.$version.nupkg" ] || { echo "release: the pack is not version $version"; exit 1; }
if [ "$dry" == --dry-run ]; then
  echo "release: dry run; would tag $tag at $(git rev-parse --short HEAD)"
else
  git tag -a "$tag" -m "TplPractices.Analyzers $version"
  echo "release: tagged $tag. Push it (git push origin $tag), publish $out/TplPractices.Analyzers.$version.nupkg,"
  echo "release: then raise VersionPrefix and the package readme's version and add the next CHANGELOG section."
fi
