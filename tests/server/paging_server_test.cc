// NextToken paging of ListStackResources, ListExports, ListImports (AWS
// pages them 100 at a time) and ListChangeSets, through boto3's paginators.
#include <catch2/catch.hpp>

#include "server_fixture.h"

using namespace ms::test::server;  // NOLINT: the fixture

TEST_CASE("boto3 pages stack resources, exports and imports by NextToken", "[server]") {
  Server server("paging");
  json r = server.Python(R"(
n = 150
resources = {'H%03d' % i: {'Type': 'AWS::CloudFormation::WaitConditionHandle'} for i in range(n)}
outputs = {'O%03d' % i: {'Value': {'Ref': 'H%03d' % i}, 'Export': {'Name': 'export-%03d' % i}} for i in range(120)}
cf.create_stack(StackName='many', TemplateBody=json.dumps({'Resources': resources, 'Outputs': outputs}))
cf.get_waiter('stack_create_complete').wait(StackName='many', WaiterConfig={'Delay': 1})
importer = {'Resources': {'I': {'Type': 'AWS::SSM::Parameter',
            'Properties': {'Type': 'String', 'Value': {'Fn::ImportValue': 'export-000'}}}}}
for k in range(105):
    cf.create_stack(StackName='user-%03d' % k, TemplateBody=json.dumps(importer))
for k in range(105):
    cf.get_waiter('stack_create_complete').wait(StackName='user-%03d' % k, WaiterConfig={'Delay': 1})
first = cf.list_stack_resources(StackName='many')
pages = list(cf.get_paginator('list_stack_resources').paginate(StackName='many'))
ids = [s['LogicalResourceId'] for p in pages for s in p['StackResourceSummaries']]
epages = list(cf.get_paginator('list_exports').paginate())
names = [e['Name'] for p in epages for e in p['Exports']]
ipages = list(cf.get_paginator('list_imports').paginate(ExportName='export-000'))
same = json.dumps({'Resources': resources, 'Outputs': outputs})
for k in range(105):  # nothing to change: FAILED change sets, listed all the same
    cf.create_change_set(StackName='many', ChangeSetName='cs-%03d' % k, TemplateBody=same)
cpages = list(cf.get_paginator('list_change_sets').paginate(StackName='many'))
imports = [s for p in ipages for s in p['Imports']]
print(json.dumps({'first': [len(first['StackResourceSummaries']), 'NextToken' in first],
                  'pages': [len(p['StackResourceSummaries']) for p in pages], 'ids': ids,
                  'epages': [len(p['Exports']) for p in epages], 'names': names,
                  'ipages': [len(p['Imports']) for p in ipages], 'imports': imports,
                  'cpages': [len(p['Summaries']) for p in cpages],
                  'cnames': [s['ChangeSetName'] for p in cpages for s in p['Summaries']],
                  'bad': error(cf.list_stack_resources, StackName='many', NextToken='nope')}))
)");
  CHECK(r["first"] == json{100, true});
  CHECK(r["pages"] == json{100, 50});
  json ids = json::array(), names = json::array(), imports = json::array();
  for (int i = 0; i < 150; ++i) ids.push_back("H" + std::string(i < 10 ? "00" : i < 100 ? "0" : "") + std::to_string(i));
  for (int i = 0; i < 120; ++i) {
    names.push_back("export-" + std::string(i < 10 ? "00" : i < 100 ? "0" : "") + std::to_string(i));
  }
  for (int k = 0; k < 105; ++k) imports.push_back("user-" + std::string(k < 10 ? "00" : k < 100 ? "0" : "") + std::to_string(k));
  CHECK(r["ids"] == ids);
  CHECK(r["epages"] == json{100, 20});
  CHECK(r["names"] == names);
  CHECK(r["ipages"] == json{100, 5});
  CHECK(r["imports"] == imports);
  CHECK(r["cpages"] == json{100, 5});
  json cnames = json::array();
  for (int k = 0; k < 105; ++k) cnames.push_back("cs-" + std::string(k < 10 ? "00" : k < 100 ? "0" : "") + std::to_string(k));
  CHECK(r["cnames"] == cnames);
  CHECK(r["bad"] == json{{"Code", "ValidationError"}, {"Message", "Invalid NextToken: nope"}, {"Status", 400}});
}
