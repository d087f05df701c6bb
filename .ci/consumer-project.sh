# Sourced by the consumer checks: a project that takes TplPractices.Analyzers from a local folder, as a user's does.
# consumer_project <csproj path> <folder with the nupkg> <restore folder> <property lines> [item lines]
consumer_project() {
  local version
  version=$(ls "$2"/TplPractices.Analyzers.*.nupkg | head -n 1 | sed -E 's/.*TplPractices\.Analyzers\.(.*)\.nupkg/\1/')
  mkdir -p "$(dirname "$1")"
  cat > "$1" <<XML
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    $4
    <RestoreAdditionalProjectSources>$2</RestoreAdditionalProjectSources>
    <RestorePackagesPath>$3</RestorePackagesPath>
  </PropertyGroup>
  <ItemGroup>
    <PackageReference Include="TplPractices.Analyzers" Version="$version" PrivateAssets="all" />
    ${5:-}
  </ItemGroup>
</Project>
XML
}
