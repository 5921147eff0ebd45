import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useI18n } from '../i18n/index.js';

export default function NotFound() {
  const { t } = useI18n();
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('notFound.title')}
      </Title>
      <Text>{t('notFound.body')}</Text>
      <Anchor component={Link} to="/dashboard">
        {t('nav.dashboard')}
      </Anchor>
    </Stack>
  );
}
