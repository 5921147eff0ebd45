import { Card, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** Below this width wide tables of figures become cards (FigureCards). */
export const NARROW = '(max-width: 40em)';

export interface FigureCard {
  key: string;
  title: string;
  /** Said at the title's right (a document's kind, an audit entry's action). */
  aside?: ReactNode;
  lines?: string[];
  /** Each figure on its own line with its label; an empty value leaves the line out. */
  figures: Array<[label: string, value: string]>;
}

/**
 * Records as cards, one under the other (below NARROW): on a phone a table of figures keeps its
 * amounts past the right edge, reachable only by scrolling inside it.
 */
export function FigureCards({ label, testId, cards }: { label: string; testId: string; cards: FigureCard[] }) {
  return (
    <section aria-label={label}>
      <Stack gap="sm">
        {cards.map((c) => (
          <Card key={c.key} withBorder padding="sm" data-testid={testId}>
            <Stack gap={4}>
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {c.title}
                </Text>
                {typeof c.aside === 'string' ? (
                  <Text size="sm" ta="right">
                    {c.aside}
                  </Text>
                ) : (
                  c.aside
                )}
              </Group>
              {(c.lines ?? []).map((line) => (
                <Text key={line} size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {line}
                </Text>
              ))}
              {c.figures
                .filter(([, value]) => value !== '')
                .map(([name, value]) => (
                  <Group key={name} justify="space-between" wrap="nowrap" gap="xs">
                    <Text size="sm">{name}</Text>
                    <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
                      {value}
                    </Text>
                  </Group>
                ))}
            </Stack>
          </Card>
        ))}
      </Stack>
    </section>
  );
}
