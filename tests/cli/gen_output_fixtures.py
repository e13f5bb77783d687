#!/usr/bin/env python3
"""Writes tests/cli/output_fixtures/: CloudFormation responses and what the
real aws CLI prints for each with --output json, text and table.

Every expected output comes from the aws CLI's own formatter
(awscli.formatter.get_formatter, the code `aws cloudformation ...` runs after
the call), run in a child process whose stdout is what the user would have:
a pipe (not a terminal: width 80, no colour) or a pseudo-terminal of a given
width (colour with --color auto). tests/cli/output_test.cc renders the same
inputs with moonstack and compares bytes. ctest does not run this script; run
it again (from anywhere) when cases are added and commit the fixtures:

    python3 tests/cli/gen_output_fixtures.py

Layout: <name>.input.json (the response), <name>.<variant>.out (the bytes
printed), cases.json (name, operation title, and for each output the format,
terminal width, colour, file, and whether the aws CLI failed part way).
"""
import fcntl
import json
import os
import pty
import struct
import subprocess
import sys
import termios

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_DIR = os.path.join(HERE, 'output_fixtures')

# The child: the aws CLI's display step (clidriver's _display_response) for
# one response, to its real stdout.
CHILD = r'''
import json, sys
from argparse import Namespace
from awscli.formatter import get_formatter
fmt, color, title, path = sys.argv[1:5]
with open(path, encoding="utf-8") as f:
    response = json.load(f)
get_formatter(fmt, Namespace(query=None, color=color))(title, response)
'''

REGION = 'us-east-1'
ACCOUNT = '123456789012'


def stack_id(name, uid):
    return 'arn:aws:cloudformation:%s:%s:stack/%s/%s' % (REGION, ACCOUNT, name, uid)


WEB_ID = stack_id('web', '5b9f6e40-8c1a-11ee-9d2a-0a1b2c3d4e5f')
NET_ID = stack_id('network', '0c3d8f10-8c19-11ee-b7a4-12ab34cd56ef')

DESCRIBE_STACKS = {
    'Stacks': [
        {
            'StackId': WEB_ID,
            'StackName': 'web',
            'Description': 'A VPC with a public subnet, a security group and a web server instance.',
            'Parameters': [
                {'ParameterKey': 'EnvName', 'ParameterValue': 'demo'},
                {'ParameterKey': 'InstanceType', 'ParameterValue': 't3.micro'},
                {'ParameterKey': 'LatestAmiId',
                 'ParameterValue': '/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-x86_64',
                 'ResolvedValue': 'ami-0abcdef1234567890'},
                {'ParameterKey': 'DbPassword', 'ParameterValue': '****'},
            ],
            'CreationTime': '2024-03-05T10:15:30.123Z',
            'LastUpdatedTime': '2024-03-06T08:01:02.456Z',
            'RollbackConfiguration': {},
            'StackStatus': 'UPDATE_COMPLETE',
            'DisableRollback': False,
            'NotificationARNs': [],
            'Capabilities': ['CAPABILITY_IAM', 'CAPABILITY_NAMED_IAM'],
            'Outputs': [
                {'OutputKey': 'WebUrl', 'OutputValue': 'http://ec2-54-0-0-1.compute-1.amazonaws.com',
                 'Description': 'The web server URL'},
                {'OutputKey': 'VpcId', 'OutputValue': 'vpc-0a1b2c3d4e5f67890',
                 'Description': 'The VPC', 'ExportName': 'web-VpcId'},
            ],
            'Tags': [
                {'Key': 'team', 'Value': 'platform'},
                {'Key': 'env', 'Value': 'demo'},
            ],
            'EnableTerminationProtection': False,
            'DriftInformation': {'StackDriftStatus': 'NOT_CHECKED'},
        },
        {
            'StackId': NET_ID,
            'StackName': 'network',
            'CreationTime': '2024-03-04T09:00:00.000Z',
            'DeletionTime': '2024-03-04T09:10:00.000Z',
            'RollbackConfiguration': {'RollbackTriggers': [], 'MonitoringTimeInMinutes': 0},
            'StackStatus': 'ROLLBACK_COMPLETE',
            'StackStatusReason': 'The following resource(s) failed to create: [Subnet]. Rollback requested by user.',
            'DisableRollback': False,
            'NotificationARNs': ['arn:aws:sns:us-east-1:123456789012:stack-events'],
            'TimeoutInMinutes': 30,
            'Tags': [],
            'EnableTerminationProtection': True,
            'DriftInformation': {'StackDriftStatus': 'NOT_CHECKED'},
        },
    ]
}

DESCRIBE_STACKS_ONE = {
    'Stacks': [
        {
            'StackId': WEB_ID,
            'StackName': 'web',
            'CreationTime': '2024-03-05T10:15:30.123Z',
            'RollbackConfiguration': {},
            'StackStatus': 'CREATE_IN_PROGRESS',
            'DisableRollback': False,
            'NotificationARNs': [],
            'EnableTerminationProtection': False,
            'DriftInformation': {'StackDriftStatus': 'NOT_CHECKED'},
        }
    ]
}


def event(n, logical, physical, rtype, status, ts, reason=None, props=None, token=None):
    e = {
        'StackId': WEB_ID,
        'EventId': '%s-%s-2024-03-05T10:1%d:00.000Z' % (logical, status, n) if logical != 'web'
        else '5b9f6e40-8c1a-11ee-9d2a-0a1b2c3d4e%02d' % n,
        'StackName': 'web',
        'LogicalResourceId': logical,
        'PhysicalResourceId': physical,
        'ResourceType': rtype,
        'Timestamp': ts,
        'ResourceStatus': status,
    }
    if reason is not None:
        e['ResourceStatusReason'] = reason
    if props is not None:
        e['ResourceProperties'] = props
    if token is not None:
        e['ClientRequestToken'] = token
    return e


DESCRIBE_STACK_EVENTS = {
    'StackEvents': [
        event(5, 'web', WEB_ID, 'AWS::CloudFormation::Stack', 'CREATE_COMPLETE', '2024-03-05T10:17:42.001Z',
              token='Console-CreateStack-7f3c'),
        event(4, 'Subnet', 'subnet-0123456789abcdef0', 'AWS::EC2::Subnet', 'CREATE_COMPLETE',
              '2024-03-05T10:16:05.512Z', props='{"VpcId":"vpc-0a1b2c3d4e5f67890","CidrBlock":"10.0.1.0/24"}'),
        event(3, 'Subnet', 'subnet-0123456789abcdef0', 'AWS::EC2::Subnet', 'CREATE_IN_PROGRESS',
              '2024-03-05T10:16:01.100Z', reason='Resource creation Initiated',
              props='{"VpcId":"vpc-0a1b2c3d4e5f67890","CidrBlock":"10.0.1.0/24"}'),
        event(2, 'Vpc', 'vpc-0a1b2c3d4e5f67890', 'AWS::EC2::VPC', 'CREATE_COMPLETE', '2024-03-05T10:15:58.000Z'),
        event(1, 'web', WEB_ID, 'AWS::CloudFormation::Stack', 'CREATE_IN_PROGRESS', '2024-03-05T10:15:30.123Z',
              reason='User Initiated', token='Console-CreateStack-7f3c'),
    ]
}

LIST_STACKS = {
    'StackSummaries': [
        {'StackId': WEB_ID, 'StackName': 'web', 'TemplateDescription': 'Web tier',
         'CreationTime': '2024-03-05T10:15:30.123Z', 'LastUpdatedTime': '2024-03-06T08:01:02.456Z',
         'StackStatus': 'UPDATE_COMPLETE', 'DriftInformation': {'StackDriftStatus': 'NOT_CHECKED'}},
        {'StackId': NET_ID, 'StackName': 'network', 'CreationTime': '2024-03-04T09:00:00.000Z',
         'DeletionTime': '2024-03-04T09:10:00.000Z', 'StackStatus': 'DELETE_COMPLETE',
         'DriftInformation': {'StackDriftStatus': 'NOT_CHECKED'}},
        {'StackId': stack_id('data', 'aa11bb22-8c1b-11ee-8888-abcdefabcdef'), 'StackName': 'data',
         'CreationTime': '2024-03-07T12:00:00.000Z', 'StackStatus': 'CREATE_FAILED',
         'StackStatusReason': 'Template error: instance of Fn::GetAtt references undefined resource Db',
         'DriftInformation': {'StackDriftStatus': 'DRIFTED', 'LastCheckTimestamp': '2024-03-08T00:00:00.000Z'}},
    ]
}

DESCRIBE_STACK_RESOURCES = {
    'StackResources': [
        {'StackName': 'web', 'StackId': WEB_ID, 'LogicalResourceId': 'Vpc',
         'PhysicalResourceId': 'vpc-0a1b2c3d4e5f67890', 'ResourceType': 'AWS::EC2::VPC',
         'Timestamp': '2024-03-05T10:15:58.000Z', 'ResourceStatus': 'CREATE_COMPLETE',
         'DriftInformation': {'StackResourceDriftStatus': 'NOT_CHECKED'}},
        {'StackName': 'web', 'StackId': WEB_ID, 'LogicalResourceId': 'Subnet',
         'PhysicalResourceId': 'subnet-0123456789abcdef0', 'ResourceType': 'AWS::EC2::Subnet',
         'Timestamp': '2024-03-05T10:16:05.512Z', 'ResourceStatus': 'CREATE_COMPLETE',
         'DriftInformation': {'StackResourceDriftStatus': 'NOT_CHECKED'}},
        {'StackName': 'web', 'StackId': WEB_ID, 'LogicalResourceId': 'WebServer',
         'ResourceType': 'AWS::EC2::Instance', 'Timestamp': '2024-03-05T10:16:09.000Z',
         'ResourceStatus': 'CREATE_FAILED', 'ResourceStatusReason':
         "Value (t3.nano2) for parameter instanceType is invalid. Invalid instance type",
         'DriftInformation': {'StackResourceDriftStatus': 'NOT_CHECKED'}},
    ]
}

DESCRIBE_STACK_RESOURCE = {
    'StackResourceDetail': {
        'StackName': 'web', 'StackId': WEB_ID, 'LogicalResourceId': 'WebServer',
        'PhysicalResourceId': 'i-0123456789abcdef0', 'ResourceType': 'AWS::EC2::Instance',
        'LastUpdatedTimestamp': '2024-03-05T10:17:01.000Z', 'ResourceStatus': 'CREATE_COMPLETE',
        'Metadata': '{"AWS::CloudFormation::Init":{"config":{"packages":{"yum":{"httpd":[]}}}}}',
        'DriftInformation': {'StackResourceDriftStatus': 'NOT_CHECKED'},
    }
}

VALIDATE_TEMPLATE = {
    'Parameters': [
        {'ParameterKey': 'EnvName', 'DefaultValue': 'demo', 'NoEcho': False,
         'Description': 'Name prefix for resources'},
        {'ParameterKey': 'InstanceType', 'DefaultValue': 't3.micro', 'NoEcho': False},
        {'ParameterKey': 'DbPassword', 'NoEcho': True, 'Description': 'The database password'},
    ],
    'Description': 'A VPC with a public subnet, a security group and a web server instance.',
    'Capabilities': ['CAPABILITY_IAM'],
    'CapabilitiesReason': 'The following resource(s) require capabilities: [AWS::IAM::Role]',
    'DeclaredTransforms': [],
}

VALIDATE_TEMPLATE_SMALL = {
    'Parameters': [],
    'Description': 'tiny',
}

GET_TEMPLATE_SUMMARY = {
    'Parameters': [
        {'ParameterKey': 'InstanceType', 'DefaultValue': 't3.micro', 'ParameterType': 'String',
         'NoEcho': False, 'Description': 'EC2 instance type',
         'ParameterConstraints': {'AllowedValues': ['t3.micro', 't3.small', 't3.medium']}},
        {'ParameterKey': 'EnvName', 'ParameterType': 'String', 'NoEcho': False,
         'ParameterConstraints': {}},
    ],
    'Description': 'Web tier',
    'Capabilities': ['CAPABILITY_NAMED_IAM'],
    'CapabilitiesReason': 'The following resource(s) require capabilities: [AWS::IAM::Role]',
    'ResourceTypes': ['AWS::EC2::VPC', 'AWS::EC2::Subnet', 'AWS::EC2::Instance', 'AWS::IAM::Role'],
    'Version': '2010-09-09',
    'Metadata': '{"AWS::CloudFormation::Interface":{}}',
    'DeclaredTransforms': [],
    'ResourceIdentifierSummaries': [
        {'ResourceType': 'AWS::EC2::VPC', 'LogicalResourceIds': ['Vpc'], 'ResourceIdentifiers': ['VpcId']},
        {'ResourceType': 'AWS::EC2::Subnet', 'LogicalResourceIds': ['SubnetA', 'SubnetB'],
         'ResourceIdentifiers': ['SubnetId']},
    ],
}

UNICODE = {
    'Stacks': [
        {
            'StackName': 'café',
            'Description': 'ウェブ層のスタック — 日本語の説明 (全角) and emoji 🚀✅',
            'StackStatus': 'CREATE_COMPLETE',
            'Tags': [
                {'Key': 'owner', 'Value': 'Zoë Ångström'},
                {'Key': 'greek', 'Value': 'Ελληνικά κείμενο'},
                {'Key': 'cyrillic', 'Value': 'Привет, мир'},
                {'Key': 'combining', 'Value': 'e\u0301 a\u0300'},
                {'Key': 'hangul', 'Value': '한국어'},
                {'Key': 'escapes', 'Value': 'tab\there, "quoted" and back\\slash'},
            ],
            'Outputs': [
                {'OutputKey': 'Banner', 'OutputValue': '«Grüße aus Köln» ½ ± ©', 'Description': '中文描述'},
            ],
        }
    ],
    # Keys are upper-cased by the text format with Python's str.upper().
    'straße': [{'größe': 'groß', 'ǆemal': 'ﬁne'}],
    'ŉame': ['ß', 'ǅ'],
}

NUMBERS = {
    'Counts': {
        'Zero': 0, 'Small': 7, 'Negative': -42, 'Big': 9007199254740993,
        'Max64': 9223372036854775807, 'MaxU64': 18446744073709551615,
    },
    'Floats': {
        'Tenth': 0.1, 'One': 1.0, 'Half': 2.5, 'NegZero': -0.0, 'Pi': 3.141592653589793,
        'E15': 1e15, 'Almost16': 9999999999999998.0, 'E16': 1e16, 'E22': 1e22, 'Tiny': 1.5e-7,
        'TenThousandth': 0.0001, 'HundredThousandth': 0.00001, 'Mixed': 123456789.123,
        'Huge': 1.7976931348623157e308, 'Denormal': 5e-324, 'Third': 1 / 3,
    },
    'Timeouts': [5, 10.5, 1e-05, 1e100],
}

BOOLEANS_AND_NULL = {
    'Flags': {'Enabled': True, 'Disabled': False, 'Missing': None, 'Empty': ''},
    'List': [True, False, None, 0, ''],
    'Stacks': [
        {'StackName': 'a', 'EnableTerminationProtection': True, 'ParentId': None},
        {'StackName': 'b', 'EnableTerminationProtection': False, 'RootId': None},
    ],
}

NARROW = {
    'Stacks': [
        {'StackName': 'a', 'StackStatus': 'CREATE_COMPLETE'},
        {'StackName': 'bb', 'StackStatus': 'UPDATE_ROLLBACK_COMPLETE'},
    ],
    'Count': 2,
}

NESTED_LISTS = {
    'Matrix': [['a', 'b', 'c'], ['dd', 'ee', 'ff']],
    'Ragged': [['x', 'y'], [['deep', 'er']], ['p', 'q']],
    'ListOfDictLists': [[{'K': 'v1', 'N': 1}], [{'K': 'v2', 'N': 2}]],
    'Objects': [{'Name': 'one', 'Sub': [{'X': 1}, {'X': 2}], 'Map': {'Y': 'y', 'Z': 'z'}},
                {'Name': 'two', 'Extra': 'only here', 'Map': {'Y': 'y2'}}],
}

MIXED_KEYS = {
    # "Value" is a scalar in one element and an object in another: the aws
    # CLI puts it in the scalar columns and prints the object's Python repr.
    'Items': [
        {'Name': 'a', 'Value': 'plain'},
        {'Name': 'b', 'Value': {'it\'s': "x", 'q': ['"', "'", 1.0, None, True], 'nb\u00a0sp': 'tab\t\x01é'}},
        {'Name': 'c', 'Value': [1, 2]},
    ],
}

DICT_IN_SCALAR_LIST = {
    # A list that does not start with an object but has one later.
    'Rows': ['first', {'A': 1, 'B': 2}, ['x', 'y']],
}

EMPTY_KEYS = {
    '': 'empty key',
    'a': {'': ['v1', 'v2']},
    'b': {'': 'only'},
    'c': {'': {}},
    'd': [],
    'e': {},
}

WIDE_VALUE = {
    'StackResourceDetail': {
        'LogicalResourceId': 'Policy',
        'Metadata': '{"Statement":[{"Effect":"Allow","Action":["s3:GetObject","s3:PutObject","s3:DeleteObject"],'
                    '"Resource":"arn:aws:s3:::a-very-long-bucket-name-for-testing-table-overflow/*"}]}',
        'ResourceStatus': 'CREATE_COMPLETE',
    }
}

LONG_TITLE_ONLY = {
    'AVeryLongSectionTitleThatIsWiderThanEverythingElseInTheTableByFar': [{'A': 'b'}],
}

CRASH_TEXT = {
    # The aws CLI fails on a list mixing objects and non-objects (text: after
    # the lines before it, table: before printing anything).
    'Before': 'printed',
    'Mixed': [{'A': 1}, 'not an object'],
    'Zafter': 'never printed',
}

RAGGED = {
    # Rows of different lengths in one table: the aws CLI's table fails
    # ("Row should have 1 elements"); its text format does not.
    'Ragged': [['x'], [['deep', 'er']], 'tail'],
}

TIGHT_COLUMNS = {
    # Widths [5, 10, 10, 10] scaled to 37 round up by one in total: the first
    # column loses it and its cells lose their padding.
    'Single': {'A': 'x', 'B': 'yyyyyy', 'C': 'zzzzzz', 'D': 'wwwwww'},
    'Rows': [{'A': 'x', 'B': 'yyyyyy', 'C': 'zzzzzz', 'D': 'wwwwww'},
             {'A': 'x', 'B': 'y', 'C': 'z', 'D': 'w'}],
}

CASES = [
    # name, operation title, response
    ('describe_stacks', 'DescribeStacks', DESCRIBE_STACKS),
    ('describe_stacks_one', 'DescribeStacks', DESCRIBE_STACKS_ONE),
    ('describe_stacks_empty', 'DescribeStacks', {'Stacks': []}),
    ('describe_stack_events', 'DescribeStackEvents', DESCRIBE_STACK_EVENTS),
    ('list_stacks', 'ListStacks', LIST_STACKS),
    ('list_stacks_empty', 'ListStacks', {'StackSummaries': []}),
    ('describe_stack_resources', 'DescribeStackResources', DESCRIBE_STACK_RESOURCES),
    ('describe_stack_resource', 'DescribeStackResource', DESCRIBE_STACK_RESOURCE),
    ('validate_template', 'ValidateTemplate', VALIDATE_TEMPLATE),
    ('validate_template_small', 'ValidateTemplate', VALIDATE_TEMPLATE_SMALL),
    ('get_template_summary', 'GetTemplateSummary', GET_TEMPLATE_SUMMARY),
    ('create_stack', 'CreateStack', {'StackId': WEB_ID}),
    ('delete_stack', 'DeleteStack', {}),
    ('response_metadata', 'UpdateStack',
     {'StackId': WEB_ID, 'ResponseMetadata': {'RequestId': 'b9b4f2d2-1111-2222-3333-444455556666',
                                              'HTTPStatusCode': 200}}),
    ('only_response_metadata', 'DeleteStack', {'ResponseMetadata': {'RequestId': 'r-1'}}),
    ('unicode', 'DescribeStacks', UNICODE),
    ('numbers', 'Numbers', NUMBERS),
    ('booleans_and_null', 'Flags', BOOLEANS_AND_NULL),
    ('narrow', 'DescribeStacks', NARROW),
    ('nested_lists', 'Nested', NESTED_LISTS),
    ('mixed_keys', 'Mixed', MIXED_KEYS),
    ('dict_in_scalar_list', 'Rows', DICT_IN_SCALAR_LIST),
    ('empty_keys', 'EmptyKeys', EMPTY_KEYS),
    ('wide_value', 'DescribeStackResource', WIDE_VALUE),
    ('tight_columns', 'T', TIGHT_COLUMNS),
    ('tight_columns_top', 'T', TIGHT_COLUMNS['Single']),
    ('long_title_only', 'T', LONG_TITLE_ONLY),
    ('crash', 'Crash', CRASH_TEXT),
    ('ragged', 'Ragged', RAGGED),
    ('top_level_metadata_string', 'Str', 'no ResponseMetadata here'),
    ('top_level_metadata_list', 'List', ['a', 'ResponseMetadata']),
    ('top_level_number', 'Number', 0.5),
    ('top_level_list', 'List', ['a', 'b', 3]),
    ('top_level_null', 'Null', None),
    ('top_level_string', 'Str', 'hello'),
    ('top_level_false', 'False', False),
    ('empty_title', '', {'StackId': WEB_ID, 'Tags': [{'Key': 'k', 'Value': 'v'}]}),
]

# (variant name, format, stdout is a terminal of this width or None for a
# pipe, --color)
VARIANTS = [
    ('json', 'json', None, 'auto'),
    ('text', 'text', None, 'auto'),
    ('table', 'table', None, 'auto'),             # piped: width 80, no colour
    ('table.pipe-color-on', 'table', None, 'on'),  # --color on: colour, width 80
    ('table.tty20', 'table', 20, 'off'),
    ('table.tty40-color', 'table', 40, 'auto'),
    ('table.tty132-color', 'table', 132, 'auto'),
    ('table.tty200', 'table', 200, 'off'),
    ('table.tty320', 'table', 320, 'off'),
]


def run_child(fmt, color, title, path, tty_width):
    env = dict(os.environ, PYTHONIOENCODING='utf-8')
    args = [sys.executable, '-c', CHILD, fmt, color, title, path]
    if tty_width is None:
        p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        return p.stdout, p.returncode
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack('HHHH', 24, tty_width, 0, 0))
    attrs = termios.tcgetattr(slave)
    attrs[1] &= ~termios.OPOST  # no \n -> \r\n: keep the bytes the CLI wrote
    termios.tcsetattr(slave, termios.TCSANOW, attrs)
    p = subprocess.Popen(args, stdout=slave, stderr=subprocess.PIPE, env=env)
    os.close(slave)
    out = b''
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    p.stderr.read()
    return out, p.wait()


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    manifest = []
    for name, title, response in CASES:
        path = os.path.join(OUT_DIR, name + '.input.json')
        with open(path, 'w', encoding='utf-8') as f:
            json.dump(response, f, indent=2, ensure_ascii=False)
            f.write('\n')
        outputs = []
        written = {}  # bytes -> file: variants printing the same share one
        for variant, fmt, tty_width, color in VARIANTS:
            out, rc = run_child(fmt, color, title, path, tty_width)
            fname = written.get(out)
            if fname is None:
                fname = written[out] = '%s.%s.out' % (name, variant)
                with open(os.path.join(OUT_DIR, fname), 'wb') as f:
                    f.write(out)
            outputs.append({
                'format': fmt,
                'terminal_width': tty_width if tty_width is not None else 80,
                'color': color == 'on' or (color == 'auto' and tty_width is not None),
                'terminal': tty_width is not None,
                'file': fname,
                'aws_cli_failed': rc != 0,
            })
        manifest.append({'name': name, 'title': title, 'input': name + '.input.json', 'outputs': outputs})
        print(name, ' '.join('%s%s' % (o['file'].split('.', 1)[1], '!' if o['aws_cli_failed'] else '')
                             for o in outputs))
    with open(os.path.join(OUT_DIR, 'cases.json'), 'w', encoding='utf-8') as f:
        # One line per output: a readable diff when fixtures change.
        f.write('[\n')
        for i, case in enumerate(manifest):
            head = {k: v for k, v in case.items() if k != 'outputs'}
            f.write('  ' + json.dumps(head)[:-1] + ', "outputs": [\n')
            f.write(',\n'.join('    ' + json.dumps(o) for o in case['outputs']))
            f.write('\n  ]}' + (',' if i + 1 < len(manifest) else '') + '\n')
        f.write(']\n')


if __name__ == '__main__':
    main()
