import { Alert, Stack, Text } from '@mantine/core';
import { ApiError } from '../../api/client.js';
import { ErrorState } from '../../ui/states.js';

/**
 * An error of a SEF or Tax Administration call: the service's message (in the user's language) and,
 * when SEF or the Tax Administration said why, their own words (`details.sef`, `details.fiscalization`, `details.intermediary`).
 */
export function ActionError({ error }: { error: unknown }) {
  if (!error) return null;
  const remote =
    error instanceof ApiError
      ? Object.entries(error.details)
          .filter(([k]) => ['sef', 'fiscalization', 'certificate', 'apiKey', 'intermediary'].includes(k))
          .flatMap(([, v]) => v)
      : [];
  return (
    <Stack gap={4}>
      <ErrorState error={error} />
      {remote.length ? (
        <Alert color="gray" variant="light" p="xs">
          {remote.map((m) => (
            <Text key={m} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {m}
            </Text>
          ))}
        </Alert>
      ) : null}
    </Stack>
  );
}
