// Change sets with IncludeNestedStacks through `serve` with boto3: a parent,
// its child and the child's own child (templates in the simulated S3), a
// parameter passed down both levels. CreateChangeSet makes a change set on
// each nested stack it modifies (same name), linked by ResourceChange's
// ChangeSetId and the nested ones' ParentChangeSetId / RootChangeSetId;
// executing the root executes the nested ones; only the root is executed
// or deleted.
#include <catch2/catch.hpp>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "server_fixture.h"

namespace {

using ms::test::server::Server;
using json = nlohmann::json;

const char* kChild = R"({"Parameters": {"N": {"Type": "String"}},
  "Resources": {"Q": {"Type": "AWS::SQS::Queue", "Properties": {"VisibilityTimeout": {"Ref": "N"}}},
                "Grand": {"Type": "AWS::CloudFormation::Stack",
                          "Properties": {"TemplateURL": "https://tmpl.s3.amazonaws.com/grand.json",
                                         "Parameters": {"N": {"Ref": "N"}}}}}})";
const char* kGrand = R"({"Parameters": {"N": {"Type": "String"}},
  "Resources": {"Q": {"Type": "AWS::SQS::Queue", "Properties": {"VisibilityTimeout": {"Ref": "N"}}}}})";

// The state with the nested templates in the simulated S3 (bucket tmpl).
void PrepareState(const std::string& name) {
  const std::string dir = (std::filesystem::temp_directory_path() / ("moonstack_server_" + name)).string();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string env = "MOONSTACK_STATE=" + dir + "/state.db ";
  REQUIRE(ms::test::RunCommand(env + MOONSTACK_BINARY + " world call s3 CreateBucket '{\"Bucket\":\"tmpl\"}'").exit_code == 0);
  for (const auto& [key, body] : {std::pair{"child.json", kChild}, std::pair{"grand.json", kGrand}}) {
    std::ofstream(dir + "/put.json") << json{{"Bucket", "tmpl"}, {"Key", key}, {"Body", body}}.dump();
    REQUIRE(ms::test::RunCommand(env + MOONSTACK_BINARY + " world call s3 PutObject \"$(cat " + dir + "/put.json)\"")
                .exit_code == 0);
  }
}

// The parent deployed with P=30, then a change set P=40 with
// IncludeNestedStacks: `ids` the three stacks' IDs, `cs` the root's ID.
const char* kSetUp = R"(
parent = json.dumps({'Parameters': {'P': {'Type': 'String'}},
    'Resources': {'Child': {'Type': 'AWS::CloudFormation::Stack',
        'Properties': {'TemplateURL': 'https://tmpl.s3.amazonaws.com/child.json', 'Parameters': {'N': {'Ref': 'P'}}}},
                  'Other': {'Type': 'AWS::SQS::Queue'}}})
root_id = cf.create_stack(StackName='p', TemplateBody=parent, Parameters=[{'ParameterKey': 'P', 'ParameterValue': '30'}])['StackId']
cf.get_waiter('stack_create_complete').wait(StackName='p', WaiterConfig={'Delay': 1})
def physical(stack, logical):
    return cf.describe_stack_resource(StackName=stack, LogicalResourceId=logical)['StackResourceDetail']['PhysicalResourceId']
child_id = physical('p', 'Child')
grand_id = physical(child_id, 'Grand')
cs = cf.create_change_set(StackName='p', ChangeSetName='cs', UsePreviousTemplate=True, IncludeNestedStacks=True,
                          Parameters=[{'ParameterKey': 'P', 'ParameterValue': '40'}])['Id']
cf.get_waiter('change_set_create_complete').wait(ChangeSetName=cs, WaiterConfig={'Delay': 1})
out = {'ids': [root_id, child_id, grand_id], 'cs': cs, 'queues': [physical(child_id, 'Q'), physical(grand_id, 'Q')]}
def described(cs_id):
    d = cf.describe_change_set(ChangeSetName=cs_id)
    return {k: d.get(k) for k in ['ChangeSetName', 'StackId', 'Status', 'ExecutionStatus', 'IncludeNestedStacks',
                                  'ParentChangeSetId', 'RootChangeSetId']} | {
        'Changes': [c['ResourceChange'] for c in d['Changes']]}
)";

// The Modify of a queue whose VisibilityTimeout comes from parameter N.
json QueueModify(const std::string& physical_id, const std::string& parameter) {
  return json{{"Action", "Modify"},
              {"LogicalResourceId", "Q"},
              {"PhysicalResourceId", physical_id},
              {"ResourceType", "AWS::SQS::Queue"},
              {"Replacement", "False"},
              {"Scope", {"Properties"}},
              {"Details",
               {{{"Target", {{"Attribute", "Properties"}, {"Name", "VisibilityTimeout"}, {"RequiresRecreation", "Never"}}},
                 {"Evaluation", "Static"},
                 {"ChangeSource", "ParameterReference"},
                 {"CausingEntity", parameter}}}}};
}

// The Modify of a nested stack whose Parameters come from `parameter`,
// linked to its own change set.
json StackModify(const std::string& logical_id, const std::string& physical_id, const std::string& parameter,
                 const std::string& change_set_id) {
  return json{{"Action", "Modify"},
              {"LogicalResourceId", logical_id},
              {"PhysicalResourceId", physical_id},
              {"ResourceType", "AWS::CloudFormation::Stack"},
              {"Replacement", "False"},
              {"Scope", {"Properties"}},
              {"Details",
               {{{"Target", {{"Attribute", "Properties"}, {"Name", "Parameters"}, {"RequiresRecreation", "Never"}}},
                 {"Evaluation", "Static"},
                 {"ChangeSource", "ParameterReference"},
                 {"CausingEntity", parameter}}}},
              {"ChangeSetId", change_set_id}};
}

}  // namespace

TEST_CASE("nested change sets server: a change set on each modified nested stack, linked to its parent and root",
          "[server][nested][changeset]") {
  PrepareState("nested_cs_create");
  Server server("nested_cs_create", "0", {}, /*fresh=*/false);
  json r = server.Python(std::string(kSetUp) + R"(
out['root'] = described(cs)
child_cs = (out['root']['Changes'] or [{}])[0].get('ChangeSetId')
out['child'] = described(child_cs) if child_cs else None
grand_cs = (out['child']['Changes'][1:] or [{}])[0].get('ChangeSetId')
out['grand'] = described(grand_cs) if grand_cs else None
out['child_cs'], out['grand_cs'] = child_cs, grand_cs
out['child_list'] = [{k: s.get(k) for k in ['ChangeSetId', 'IncludeNestedStacks', 'ParentChangeSetId', 'RootChangeSetId']}
                     for s in cf.list_change_sets(StackName=child_id)['Summaries']]
out['root_list'] = [{k: s.get(k) for k in ['ChangeSetId', 'IncludeNestedStacks', 'ParentChangeSetId', 'RootChangeSetId']}
                    for s in cf.list_change_sets(StackName='p')['Summaries']]
out['delete_nested'] = error(cf.delete_change_set, ChangeSetName=child_cs)
cf.delete_change_set(ChangeSetName=cs)
out['after_delete'] = [error(cf.describe_change_set, ChangeSetName=x) for x in [cs, child_cs, grand_cs]]
print(json.dumps(out))
)");
  const std::string root_id = r["ids"][0], child_id = r["ids"][1], grand_id = r["ids"][2];
  const std::string cs = r["cs"];
  const std::string child_cs = r["child_cs"].is_string() ? r["child_cs"].get<std::string>() : "";
  const std::string grand_cs = r["grand_cs"].is_string() ? r["grand_cs"].get<std::string>() : "";
  REQUIRE(child_cs.rfind("arn:aws:cloudformation:us-east-1:", 0) == 0);
  REQUIRE(grand_cs.rfind("arn:aws:cloudformation:us-east-1:", 0) == 0);
  CHECK(child_cs.find(":changeSet/cs/") != std::string::npos);  // the root's name
  CHECK(child_cs != cs);
  CHECK(grand_cs != child_cs);

  CHECK(r["root"] == json{{"ChangeSetName", "cs"},
                          {"StackId", root_id},
                          {"Status", "CREATE_COMPLETE"},
                          {"ExecutionStatus", "AVAILABLE"},
                          {"IncludeNestedStacks", true},
                          {"ParentChangeSetId", nullptr},
                          {"RootChangeSetId", nullptr},
                          {"Changes", {StackModify("Child", child_id, "P", child_cs)}}});
  CHECK(r["child"] == json{{"ChangeSetName", "cs"},
                           {"StackId", child_id},
                           {"Status", "CREATE_COMPLETE"},
                           {"ExecutionStatus", "AVAILABLE"},
                           {"IncludeNestedStacks", true},
                           {"ParentChangeSetId", cs},
                           {"RootChangeSetId", cs},
                           {"Changes", {QueueModify(r["queues"][0].get<std::string>(), "N"), StackModify("Grand", grand_id, "N", grand_cs)}}});
  CHECK(r["grand"] == json{{"ChangeSetName", "cs"},
                           {"StackId", grand_id},
                           {"Status", "CREATE_COMPLETE"},
                           {"ExecutionStatus", "AVAILABLE"},
                           {"IncludeNestedStacks", true},
                           {"ParentChangeSetId", child_cs},
                           {"RootChangeSetId", cs},
                           {"Changes", {QueueModify(r["queues"][1].get<std::string>(), "N")}}});
  CHECK(r["root_list"] == json{{{"ChangeSetId", cs}, {"IncludeNestedStacks", true},
                                {"ParentChangeSetId", nullptr}, {"RootChangeSetId", nullptr}}});
  CHECK(r["child_list"] == json{{{"ChangeSetId", child_cs}, {"IncludeNestedStacks", true},
                                 {"ParentChangeSetId", cs}, {"RootChangeSetId", cs}}});
  // Only the root is deleted, and with it the nested ones.
  CHECK(r["delete_nested"] ==
        json{{"Code", "InvalidChangeSetStatus"},
             {"Message", "ChangeSet [" + child_cs + "] is a nested change set and cannot be deleted on its own: use "
                         "its root change set [" + cs + "]"},
             {"Status", 400}});
  for (size_t i = 0; i < 3; ++i) {
    const std::string id = i == 0 ? cs : i == 1 ? child_cs : grand_cs;
    CHECK(r["after_delete"][i] == json{{"Code", "ChangeSetNotFound"},
                                       {"Message", "ChangeSet [" + id + "] does not exist"},
                                       {"Status", 404}});
  }
}

TEST_CASE("nested change sets server: executing the root executes the nested change sets, a nested one is refused",
          "[server][nested][changeset]") {
  PrepareState("nested_cs_execute");
  Server server("nested_cs_execute", "0", {}, /*fresh=*/false);
  json r = server.Python(std::string(kSetUp) + R"(
child_cs = cf.describe_change_set(ChangeSetName=cs)['Changes'][0]['ResourceChange']['ChangeSetId']
grand_cs = cf.describe_change_set(ChangeSetName=child_cs)['Changes'][1]['ResourceChange']['ChangeSetId']
out['nested'] = [child_cs, grand_cs]
out['execute_nested'] = error(cf.execute_change_set, ChangeSetName=child_cs)
cf.execute_change_set(ChangeSetName=cs)
cf.get_waiter('stack_update_complete').wait(StackName='p', WaiterConfig={'Delay': 1})
out['stacks'] = []
for sid in out['ids']:
    d = cf.describe_stacks(StackName=sid)['Stacks'][0]
    own = [e['ResourceStatus'] for e in cf.describe_stack_events(StackName=sid)['StackEvents']
           if e['LogicalResourceId'] == d['StackName']]
    out['stacks'].append({'StackStatus': d['StackStatus'], 'ChangeSetId': d.get('ChangeSetId'),
                          'Parameters': [p['ParameterValue'] for p in d.get('Parameters', [])],
                          'Events': list(reversed(own))})
out['executions'] = [cf.describe_change_set(ChangeSetName=x)['ExecutionStatus'] for x in [cs, child_cs, grand_cs]]
print(json.dumps(out))
)");
  const std::string cs = r["cs"], child_cs = r["nested"][0], grand_cs = r["nested"][1];
  CHECK(r["execute_nested"] ==
        json{{"Code", "InvalidChangeSetStatus"},
             {"Message", "ChangeSet [" + child_cs + "] is a nested change set and cannot be executed on its own: use "
                         "its root change set [" + cs + "]"},
             {"Status", 400}});
  const json update = {"CREATE_IN_PROGRESS", "CREATE_COMPLETE", "UPDATE_IN_PROGRESS",
                       "UPDATE_COMPLETE_CLEANUP_IN_PROGRESS", "UPDATE_COMPLETE"};
  CHECK(r["stacks"][0] == json{{"StackStatus", "UPDATE_COMPLETE"}, {"ChangeSetId", cs}, {"Parameters", {"40"}},
                               {"Events", update}});
  CHECK(r["stacks"][1] == json{{"StackStatus", "UPDATE_COMPLETE"}, {"ChangeSetId", child_cs}, {"Parameters", {"40"}},
                               {"Events", update}});
  CHECK(r["stacks"][2] == json{{"StackStatus", "UPDATE_COMPLETE"}, {"ChangeSetId", grand_cs}, {"Parameters", {"40"}},
                               {"Events", update}});
  CHECK(r["executions"] == json{"EXECUTE_COMPLETE", "EXECUTE_COMPLETE", "EXECUTE_COMPLETE"});
}
